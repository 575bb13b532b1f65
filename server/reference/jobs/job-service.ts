/**
 * Jobs from enqueue to a final state: records the job, queues its processing, runs the extraction,
 * applies the outcome through the state machine and stores it. Also resumes, at start, the jobs a
 * previous run left `Processing`.
 *
 * - Time-out: a job must be final within `processingTimeoutMs` of its creation (spec §3.1 "within 590
 *   seconds"), queueing included. A timer per job fails it at its deadline, running or still queued.
 * - Restart: jobs left `Processing` are queued again (their deadline still counts from creation). A job
 *   whose processing was started and never ended `MAX_ATTEMPTS` times (the process died each time, a
 *   document that takes the machine down) is failed rather than tried forever. A clean stop (`close`)
 *   interrupts the running jobs without counting it against them.
 * - Hooks: `onFinished` is told of every job that reaches a final state (webhook dispatch), and
 *   `webhookDeliveries` gives a finished job's `webhooks` (empty until processing is finished).
 */
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ProblemError } from '@extraction-review/contract/problem';
import { dateOf, systemClock, type Clock } from '@extraction-review/server-kit/clock';
import type { ExtractionInference, WebhookResponse } from '@extraction-review/document-text/api-types';
import type { Extractor } from '@extraction-review/document-text/extractor';
import { extractResult, type FieldReader } from '@extraction-review/document-text/extract-result';
import { ragPostProcess } from '../rag/apply-rag';
import type { RagStore } from '../rag/rag-store';
import type { Model, ModelCatalog } from '../models/model-catalog';
import type { FileStore } from '../store/file-store';
import type { InferenceRecord, JobOptions, JobRecord, JobStore } from '../store/job-store';
import { activeOptionsOf, dataSchemaOf, resolveJobOptions } from './job-options';
import { isFinal, newJob, transition, type JobEvent } from './job-state';
import { WorkQueue } from './work-queue';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('reference');

/** The hosted service's processing time-out (spec §8). */
export const DEFAULT_PROCESSING_TIMEOUT_MS = 590_000;
/** One extraction thread per core the process may use. */
export const DEFAULT_CONCURRENCY = Math.max(1, availableParallelism());
/** Starts of processing that never ended (crashes) before a job is failed. */
export const MAX_ATTEMPTS = 3;

/** Where the webhook deliveries of a job are recorded (webhooks/): `job.webhooks` once it is final. */
export interface WebhookDeliveries {
  deliveriesFor(jobId: string): WebhookResponse[];
}

/** Told once of each job that reaches a final state, after the state is stored. */
export type JobFinishedHook = (job: JobRecord, inference?: InferenceRecord) => void | Promise<void>;

export interface JobServiceOptions {
  store: JobStore;
  files: FileStore;
  models: ModelCatalog;
  /** Reads documents; a `FieldReader` (the extraction threads) also finds the fields off this thread. */
  extractor: Extractor | FieldReader;
  concurrency?: number;
  processingTimeoutMs?: number;
  onFinished?: JobFinishedHook;
  webhookDeliveries?: WebhookDeliveries;
  /** Told when an inference is deleted after being fetched (so that RAG can forget its text). */
  onInferenceDeleted?: (inference: InferenceRecord) => void;
  /** Validated documents for the `rag` option; each processed document's text is kept there too. */
  rag?: RagStore;
  /** Jobs' times and deadlines; default the system's. */
  clock?: Clock;
}

export interface NewJobInput {
  id: string;
  model: Model;
  filename: string;
  alias: string | null;
  mimeType: string;
  fileSize: number;
  /** Resolved with `resolveJobOptions`; left out, the model's defaults. */
  options?: JobOptions;
  webhookIds?: readonly string[];
}

/** What a fetch of an inference found. */
export type FetchedInference =
  { found: true; inference: InferenceRecord } | { found: false; deletedAt: string | undefined };

/** The reason a job is interrupted by `close()`: it stays `Processing`, to resume at the next start. */
class ServiceClosing extends Error {
  constructor() {
    super('The reference service is stopping.');
    this.name = 'ServiceClosing';
  }
}

export class JobService {
  private readonly queue: WorkQueue;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly deadlines = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, AbortController>();
  private closed = false;

  constructor(private readonly deps: JobServiceOptions) {
    // Twice as many jobs under way as extraction threads: while a thread reads one document, the
    // next one already waits at the pool, and the main thread stores the previous result meanwhile
    // (the threads bound the heavy work; this only keeps them from idling between jobs).
    this.queue = new WorkQueue(2 * (deps.concurrency ?? DEFAULT_CONCURRENCY));
    this.timeoutMs = deps.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
    this.clock = deps.clock ?? systemClock;
  }

  /** The uploaded file must already be committed to the FileStore under `input.id`. */
  enqueue(input: NewJobInput): JobRecord {
    const { model, options, webhookIds, ...rest } = input;
    const job = newJob({
      ...rest,
      modelId: model.id,
      options: options ?? resolveJobOptions(model),
      webhookIds,
      at: dateOf(this.clock),
    });
    this.deps.store.insertJob(job);
    this.schedule(job);
    return job;
  }

  findJob(id: string): JobRecord | undefined {
    return this.deps.store.findJob(id);
  }

  /** `job.webhooks`: empty until processing is finished, then what the deliveries recorded. */
  webhooksOf(job: JobRecord): WebhookResponse[] {
    if (!isFinal(job.status)) return [];
    return this.deps.webhookDeliveries?.deliveriesFor(job.id) ?? [];
  }

  findInference(id: string): InferenceRecord | undefined {
    return this.deps.store.findInference(id);
  }

  /**
   * GET of a result: the inference, deleted on the way out (with the uploaded document) when its model
   * deletes extracted data once fetched (spec §3.3); later fetches find it deleted.
   */
  async fetchInference(id: string): Promise<FetchedInference> {
    const inference = this.deps.store.findInference(id);
    if (!inference) return { found: false, deletedAt: this.deps.store.deletedInferenceAt(id) };
    const model = this.deps.models.find(inference.body.model.id);
    if (!model?.delete_after_fetch) return { found: true, inference };
    const taken = this.deps.store.takeInference(id, dateOf(this.clock));
    if (!taken) return { found: false, deletedAt: this.deps.store.deletedInferenceAt(id) };
    await this.deps.files.remove(taken.jobId);
    try {
      this.deps.onInferenceDeleted?.(taken);
    } catch (error) {
      logger.error({ err: error }, 'the inference-deleted hook failed');
    }
    return { found: true, inference: taken };
  }

  /**
   * Jobs left `Processing` by a previous run are queued again when their file is still there, and
   * failed with a problem otherwise, so that no job stays `Processing` forever.
   */
  resumeInterrupted(): { resumed: number; failed: number } {
    let resumed = 0;
    let failed = 0;
    for (const job of this.deps.store.jobsWithStatus('Processing')) {
      let reason: string | undefined;
      if (!this.deps.files.exists(job.id)) {
        reason =
          'The reference service stopped while this job was processing, and its uploaded file is gone.';
      } else if (job.attempts >= MAX_ATTEMPTS) {
        reason =
          `The reference service stopped ${job.attempts} times while processing this job; ` +
          'it is not tried again.';
      }
      if (reason === undefined) {
        this.schedule(job);
        resumed++;
      } else {
        this.finish(job, {
          type: 'failed',
          error: new ProblemError('500-004', reason).toBody(),
          at: dateOf(this.clock),
        });
        failed++;
      }
    }
    return { resumed, failed };
  }

  /**
   * Stops taking work and interrupts the jobs being processed: they stay `Processing` and resume at the
   * next start, as do the queued ones.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.deadlines.values()) clearTimeout(timer);
    this.deadlines.clear();
    for (const controller of this.running.values()) controller.abort(new ServiceClosing());
    await this.queue.close();
  }

  private schedule(job: JobRecord): void {
    if (this.closed) return;
    const remaining = Date.parse(job.createdAt) + this.timeoutMs - this.clock.now();
    const timer = setTimeout(() => this.onDeadline(job.id), Math.max(0, remaining));
    timer.unref();
    this.deadlines.set(job.id, timer);
    this.queue.push(() => this.process(job.id));
  }

  private timeoutProblem(): ProblemError {
    return new ProblemError('500-003', `Processing did not finish within ${formatDuration(this.timeoutMs)}.`);
  }

  /** The job's time is up: a running job is stopped (process() fails it), a queued one failed here. */
  private onDeadline(jobId: string): void {
    this.deadlines.delete(jobId);
    const controller = this.running.get(jobId);
    if (controller) {
      controller.abort(this.timeoutProblem());
      return;
    }
    const job = this.deps.store.findJob(jobId);
    if (job?.status === 'Processing') {
      this.finish(job, { type: 'failed', error: this.timeoutProblem().toBody(), at: dateOf(this.clock) });
    }
  }

  private async process(jobId: string): Promise<void> {
    const job = this.deps.store.findJob(jobId);
    if (job?.status !== 'Processing' || this.closed) return;
    if (this.clock.now() >= Date.parse(job.createdAt) + this.timeoutMs) {
      // Its time ran out while it waited for a worker (its timer may not have fired yet).
      this.finish(job, { type: 'failed', error: this.timeoutProblem().toBody(), at: dateOf(this.clock) });
      return;
    }
    const controller = new AbortController();
    this.running.set(jobId, controller);
    this.deps.store.startAttempt(jobId);
    let event: JobEvent;
    let inference: InferenceRecord | undefined;
    try {
      inference = await untilAborted(this.infer(job, controller.signal), controller.signal);
      event = { type: 'processed', inferenceId: inference.id, at: dateOf(this.clock) };
    } catch (error) {
      if (error instanceof ServiceClosing) {
        // A clean stop is not the job's fault: it resumes at the next start, with its attempts as they were.
        this.deps.store.releaseAttempt(jobId);
        return;
      }
      event = { type: 'failed', error: asProblem(error).toBody(), at: dateOf(this.clock) };
      inference = undefined;
    } finally {
      this.running.delete(jobId);
    }
    this.finish(job, event, inference);
  }

  /** Applies a final event; only the first one for a job is stored and announced. */
  private finish(job: JobRecord, event: JobEvent, inference?: InferenceRecord): void {
    const final = transition(job, event);
    const stored = this.deps.store.finishJob(final, inference);
    clearTimeout(this.deadlines.get(job.id));
    this.deadlines.delete(job.id);
    if (!stored) return;
    const { onFinished } = this.deps;
    if (!onFinished) return;
    try {
      Promise.resolve(onFinished(final, inference)).catch(logHookError);
    } catch (error) {
      logHookError(error);
    }
  }

  private async infer(job: JobRecord, signal: AbortSignal): Promise<InferenceRecord> {
    const model = this.deps.models.find(job.modelId);
    if (!model) {
      throw new ProblemError(
        '500-002',
        `The model ${job.modelId} is no longer in the reference service's models file.`,
      );
    }
    const options = job.options ?? resolveJobOptions(model);
    const active = activeOptionsOf(options);
    // The schema is the request's replacement when `data_schema.replace` was set.
    const { rag } = this.deps;
    let retrieved: string | null = null;
    const { pageCount, result, pages } = await extractResult(
      this.deps.extractor,
      { path: this.deps.files.pathOf(job.id), mimeType: job.mimeType },
      dataSchemaOf(model, options),
      active,
      signal,
      {
        textContext: options.textContext,
        postProcess:
          active.rag && rag
            ? ragPostProcess(rag, model.id, (documentId) => (retrieved = documentId))
            : undefined,
      },
    );
    if (active.rag) result.rag = { retrieved_document_id: retrieved };
    const id = randomUUID();
    const body: ExtractionInference = {
      id,
      job: { id: job.id },
      model: { id: model.id },
      file: { name: job.filename, alias: job.alias, page_count: pageCount, mime_type: job.mimeType },
      result,
      active_options: active,
    };
    // Kept so that an operator can later turn this result, corrected, into a validated RAG document.
    rag?.rememberInference({ id, jobId: job.id, body }, pages);
    return { id, jobId: job.id, createdAt: dateOf(this.clock).toISOString(), body };
  }
}

function asProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  logger.error({ err: error }, 'an extraction failed');
  const message = error instanceof Error ? error.message : String(error);
  return new ProblemError('500-002', `The extraction failed: ${message}`, { cause: error });
}

function logHookError(error: unknown): void {
  logger.error({ err: error }, 'the job-finished hook failed');
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

const formatDuration = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
