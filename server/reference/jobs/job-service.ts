/**
 * Jobs from enqueue to a final state: records the job, queues its processing, runs the extraction,
 * applies the outcome through the state machine and stores it. Also resumes, at start, the jobs a
 * previous run left `Processing`.
 */
import { randomUUID } from 'node:crypto';
import { ProblemError } from '../../shared/problem';
import type { ActiveOptions, ExtractionInference } from '../api-types';
import type { Extractor } from '../extract/extractor';
import { extractResult } from '../extract/extract-result';
import type { Model, ModelCatalog } from '../models/model-catalog';
import type { FileStore } from '../store/file-store';
import type { InferenceRecord, JobRecord, JobStore } from '../store/job-store';
import { newJob, transition, type JobEvent } from './job-state';
import { WorkQueue } from './work-queue';

/** The hosted service's processing time-out (spec §8). */
export const DEFAULT_PROCESSING_TIMEOUT_MS = 590_000;
export const DEFAULT_CONCURRENCY = 2;

export interface JobServiceOptions {
  store: JobStore;
  files: FileStore;
  models: ModelCatalog;
  extractor: Extractor;
  concurrency?: number;
  processingTimeoutMs?: number;
}

export interface NewJobInput {
  id: string;
  model: Model;
  filename: string;
  alias: string | null;
  mimeType: string;
  fileSize: number;
}

export class JobService {
  private readonly queue: WorkQueue;
  private readonly timeoutMs: number;

  constructor(private readonly deps: JobServiceOptions) {
    this.queue = new WorkQueue(deps.concurrency ?? DEFAULT_CONCURRENCY);
    this.timeoutMs = deps.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  }

  /** The uploaded file must already be committed to the FileStore under `input.id`. */
  enqueue(input: NewJobInput): JobRecord {
    const { model, ...rest } = input;
    const job = newJob({ ...rest, modelId: model.id, at: new Date() });
    this.deps.store.insertJob(job);
    this.queue.push(() => this.process(job.id));
    return job;
  }

  findJob(id: string): JobRecord | undefined {
    return this.deps.store.findJob(id);
  }

  findInference(id: string): InferenceRecord | undefined {
    return this.deps.store.findInference(id);
  }

  /**
   * Jobs left `Processing` by a previous run are queued again when their file is still there, and
   * failed with a problem otherwise, so that no job stays `Processing` forever.
   */
  resumeInterrupted(): { resumed: number; failed: number } {
    let resumed = 0;
    let failed = 0;
    for (const job of this.deps.store.jobsWithStatus('Processing')) {
      if (this.deps.files.exists(job.id)) {
        this.queue.push(() => this.process(job.id));
        resumed++;
      } else {
        const error = new ProblemError(
          '500-002',
          'The reference service stopped while this job was processing, and its uploaded file is gone.',
        ).toBody();
        this.deps.store.finishJob(transition(job, { type: 'failed', error, at: new Date() }));
        failed++;
      }
    }
    return { resumed, failed };
  }

  /** Stops taking work and waits for the jobs being processed; queued ones resume at the next start. */
  close(): Promise<void> {
    return this.queue.close();
  }

  private async process(jobId: string): Promise<void> {
    const job = this.deps.store.findJob(jobId);
    if (job?.status !== 'Processing') return;
    let event: JobEvent;
    let inference: InferenceRecord | undefined;
    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(
          new ProblemError('500-002', `Processing did not finish within ${formatDuration(this.timeoutMs)}.`),
        ),
      this.timeoutMs,
    );
    try {
      inference = await untilAborted(this.infer(job, timeout.signal), timeout.signal);
      event = { type: 'processed', inferenceId: inference.id, at: new Date() };
    } catch (error) {
      event = { type: 'failed', error: asProblem(error).toBody(), at: new Date() };
      inference = undefined;
    } finally {
      clearTimeout(timer);
    }
    this.deps.store.finishJob(transition(job, event), inference);
  }

  private async infer(job: JobRecord, signal: AbortSignal): Promise<InferenceRecord> {
    const model = this.deps.models.find(job.modelId);
    if (!model) {
      throw new ProblemError(
        '500-002',
        `The model ${job.modelId} is no longer in the reference service's models file.`,
      );
    }
    const options = activeOptions(model);
    const { pageCount, result } = await extractResult(
      this.deps.extractor,
      { path: this.deps.files.pathOf(job.id), mimeType: job.mimeType },
      model.data_schema.fields,
      options,
      signal,
    );
    const id = randomUUID();
    const body: ExtractionInference = {
      id,
      job: { id: job.id },
      model: { id: model.id },
      file: { name: job.filename, alias: job.alias, page_count: pageCount, mime_type: job.mimeType },
      result,
      active_options: options,
    };
    return { id, jobId: job.id, createdAt: new Date().toISOString(), body };
  }
}

/** The model's defaults; per-request options (`raw_text`, `polygon`, `data_schema`, ...) come in a later issue. */
function activeOptions(model: Model): ActiveOptions {
  return { ...model.default_options, text_context: false, data_schema: { replace: false } };
}

function asProblem(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  console.error('[reference] extraction failed:', error);
  const message = error instanceof Error ? error.message : String(error);
  return new ProblemError('500-002', `The extraction failed: ${message}`, { cause: error });
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
