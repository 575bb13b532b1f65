/**
 * v1 jobs from `predict`/`predict_async` to `completed` or `failed`. Kept apart from the v2
 * JobService because the v1 job has its own states (`waiting` before a worker takes it, then
 * `processing`), its own document, and one more reading step (page orientation); what is shared is
 * reused: the work queue, the file store, the extraction threads' field finding, the database.
 *
 * - Time-out: as in v2, a job must be final within `processingTimeoutMs` of being issued.
 * - Restart: unfinished jobs are queued again; one whose processing started `MAX_ATTEMPTS` times
 *   without ending (the process died each time) is failed rather than tried forever.
 * - `predict` (synchronous) enqueues and waits for the job's end with `waitFor`.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import sharp from 'sharp';
import { ProblemError } from '@extraction-review/contract/problem';
import { dateOf, systemClock, type Clock } from '@extraction-review/server-kit/clock';
import type { FieldQuery, FieldReader } from '@extraction-review/document-text/extract-result';
import type { StoredFile } from '@extraction-review/document-text/extractor';
import type { Orientation } from '@extraction-review/document-text/ocr/orientation';
import { DEFAULT_PROCESSING_TIMEOUT_MS, MAX_ATTEMPTS } from '../jobs/job-service';
import { WorkQueue } from '../jobs/work-queue';
import type { ModelCatalog, V1Product } from '../models/model-catalog';
import type { FileStore } from '../store/file-store';
import { v1Document } from './v1-document';
import type { StoredFeedback } from './v1-feedback';
import type { V1JobError, V1JobRecord, V1Store } from './v1-store';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('reference');

/** Field finding and page orientation, both in the extraction threads (ThreadedExtractor). */
export interface V1Reader extends FieldReader {
  detectOrientations(file: StoredFile, signal?: AbortSignal): Promise<(Orientation | null)[]>;
}

export interface V1JobServiceOptions {
  store: V1Store;
  files: FileStore;
  models: ModelCatalog;
  reader: V1Reader;
  concurrency: number;
  processingTimeoutMs?: number;
  /** Told once of each job that became final with `announce` set (v1 webhooks, v1-webhooks.ts). */
  onFinished?: (job: V1JobRecord) => void;
  /** Jobs' times and deadlines; default the system's. */
  clock?: Clock;
}

export interface NewV1Job {
  id: string;
  product: V1Product;
  filename: string;
  mimeType: string;
  /** Announce its end to the product's webhooks (`predict_async`). */
  announce: boolean;
}

class ServiceClosing extends Error {}

export class V1JobService {
  private readonly queue: WorkQueue;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly running = new Map<string, AbortController>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private closed = false;

  constructor(private readonly deps: V1JobServiceOptions) {
    this.queue = new WorkQueue(2 * deps.concurrency);
    this.timeoutMs = deps.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
    this.clock = deps.clock ?? systemClock;
  }

  /** The uploaded file must already be committed to the FileStore under `input.id`. */
  enqueue(input: NewV1Job): V1JobRecord {
    const job: V1JobRecord = {
      id: input.id,
      account: input.product.account,
      name: input.product.name,
      version: input.product.version,
      documentId: randomUUID(),
      filename: input.filename,
      mimeType: input.mimeType,
      issuedAt: dateOf(this.clock).toISOString(),
      startedAt: null,
      availableAt: null,
      status: 'waiting',
      error: null,
      document: null,
      attempts: 0,
      announce: input.announce,
    };
    this.deps.store.insert(job);
    this.schedule(job.id);
    return job;
  }

  find(id: string): V1JobRecord | undefined {
    return this.deps.store.find(id);
  }

  findByDocument(documentId: string): V1JobRecord | undefined {
    return this.deps.store.findByDocument(documentId);
  }

  /** The feedback stored for a document (v1-feedback.ts), undefined when none was sent. */
  findFeedback(documentId: string): StoredFeedback | undefined {
    return this.deps.store.findFeedback(documentId) as StoredFeedback | undefined;
  }

  saveFeedback(documentId: string, feedback: StoredFeedback): void {
    this.deps.store.saveFeedback(documentId, feedback, dateOf(this.clock));
  }

  /** Resolves with the job once it is final (at once when it already is). */
  async waitFor(id: string): Promise<V1JobRecord> {
    for (;;) {
      const job = this.deps.store.find(id);
      if (!job) throw new Error(`no v1 job ${id}`);
      if (job.status === 'completed' || job.status === 'failed') return job;
      await new Promise<void>((resolve) => this.waiters.set(id, [...(this.waiters.get(id) ?? []), resolve]));
    }
  }

  /** Queues again the jobs a previous run left unfinished (see the header). */
  resumeInterrupted(): { resumed: number; failed: number } {
    let resumed = 0;
    let failed = 0;
    for (const job of this.deps.store.unfinished()) {
      let details: string | undefined;
      if (!this.deps.files.exists(job.id)) {
        details =
          'The reference service stopped while this job was processing, and its uploaded file is gone.';
      } else if (job.attempts >= MAX_ATTEMPTS) {
        details = `The reference service stopped ${job.attempts} times while processing this job; it is not tried again.`;
      }
      if (details === undefined) {
        this.schedule(job.id);
        resumed++;
      } else {
        this.fail(job, { code: '500-004', message: 'Processing interrupted', details });
        failed++;
      }
    }
    return { resumed, failed };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const controller of this.running.values()) controller.abort(new ServiceClosing());
    await this.queue.close();
  }

  private schedule(id: string): void {
    if (!this.closed) this.queue.push(() => this.process(id));
  }

  private async process(id: string): Promise<void> {
    if (this.closed) return;
    const waiting = this.deps.store.find(id);
    if (!waiting) return;
    const remaining = Date.parse(waiting.issuedAt) + this.timeoutMs - this.clock.now();
    const startedAt = dateOf(this.clock);
    const job = remaining > 0 ? this.deps.store.start(id, startedAt) : waiting;
    if (!job || job.status === 'completed' || job.status === 'failed') return;
    // Already past its deadline when a worker takes it (a long queue): it timed out. Not `throw
    // deadline.reason` below: a timeout signal just made has no reason yet, and the job would fail
    // as "Processing failed" instead.
    if (remaining <= 0) {
      this.fail(job, this.timedOut());
      return;
    }
    const controller = new AbortController();
    const deadline = AbortSignal.timeout(Math.max(1, remaining));
    const signal = AbortSignal.any([controller.signal, deadline]);
    this.running.set(id, controller);
    try {
      const document = await untilAborted(this.read(job, startedAt, signal), signal);
      this.finish({ ...job, status: 'completed', availableAt: dateOf(this.clock).toISOString(), document });
    } catch (error) {
      if (error instanceof ServiceClosing || controller.signal.reason instanceof ServiceClosing) {
        // A clean stop is not the job's fault: it resumes at the next start.
        this.deps.store.release(id);
        return;
      }
      this.fail(job, this.errorOf(error, deadline));
    } finally {
      this.running.delete(id);
    }
  }

  private async read(job: V1JobRecord, startedAt: Date, signal: AbortSignal): Promise<unknown> {
    const product = this.deps.models.findProduct(job.account, job.name, job.version);
    const model = product && this.deps.models.find(product.model_id);
    if (!product || !model) {
      throw new ProblemError(
        '500-002',
        `The product ${job.account}/${job.name}/v${job.version} is no longer in the models file.`,
      );
    }
    const file: StoredFile = { path: this.deps.files.pathOf(job.id), mimeType: job.mimeType };
    const query: FieldQuery = { schema: model.data_schema.fields };
    // Orientation first: a photo taken sideways is read from a copy turned upright, as OCR reads
    // upright text far better (its boxes are then upright from the start).
    const orientations = await this.deps.reader.detectOrientations(file, signal);
    const upright = await uprightCopy(file, orientations, signal);
    try {
      const reading = await this.deps.reader.readFields(upright ?? file, query, signal);
      return v1Document({
        documentId: job.documentId,
        filename: job.filename,
        product,
        reading: {
          pageCount: reading.pageCount,
          fields: reading.fields,
          orientations,
          readUpright: orientations.map(() => upright !== null),
        },
        startedAt,
        finishedAt: dateOf(this.clock),
      });
    } finally {
      if (upright) await rm(upright.path, { force: true });
    }
  }

  private timedOut(): V1JobError {
    return {
      code: '500-003',
      message: 'Processing timed out',
      details: `Processing did not finish within ${Math.round(this.timeoutMs / 1000)} s.`,
    };
  }

  private errorOf(error: unknown, deadline: AbortSignal): V1JobError {
    if (deadline.aborted) return this.timedOut();
    if (error instanceof ProblemError)
      return { code: error.code, message: error.title, details: error.message };
    logger.error({ err: error }, 'a v1 extraction failed');
    return {
      code: '500-002',
      message: 'Processing failed',
      details: `The extraction failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }

  private fail(job: V1JobRecord, error: V1JobError): void {
    this.finish({ ...job, status: 'failed', availableAt: dateOf(this.clock).toISOString(), error });
  }

  private finish(job: V1JobRecord): void {
    // Announced once: only by the writer whose final state was stored.
    if (this.deps.store.finish(job) && job.announce) {
      try {
        this.deps.onFinished?.(job);
      } catch (error) {
        // The job's own outcome stands; only its announcement is lost (a broken database).
        logger.error({ err: error, job_id: job.id }, 'v1 webhooks of a job not recorded');
      }
    }
    const waiters = this.waiters.get(job.id) ?? [];
    this.waiters.delete(job.id);
    for (const wake of waiters) wake();
  }
}

/** Settles with `work`, or rejects with the signal's reason as soon as it is aborted. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Pictures of one page that a copy turned upright can be made of (TIFF, HEIC and PDF are read as stored). */
const TURNABLE = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * A PNG copy of a one-page picture turned upright (EXIF orientation applied first, as the reading
 * does), next to the stored file; null when the page is upright already, its orientation unknown, or
 * the document is not such a picture.
 */
async function uprightCopy(
  file: StoredFile,
  orientations: readonly (Orientation | null)[],
  signal: AbortSignal,
): Promise<StoredFile | null> {
  const turn = orientations[0];
  if (orientations.length !== 1 || !turn || !TURNABLE.has(file.mimeType)) return null;
  signal.throwIfAborted();
  const displayed = await sharp(file.path).rotate().toBuffer();
  const path = `${file.path}.upright.png`;
  // sharp turns clockwise, as `orientation.value` counts.
  await sharp(displayed).rotate(turn).png().toFile(path);
  return { path, mimeType: 'image/png' };
}
