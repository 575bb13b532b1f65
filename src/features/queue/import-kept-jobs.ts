/**
 * Brings the jobs this browser kept (src/lib/document-store.ts, from before the team queue existed)
 * into the team queue, one at a time: for each, its result — the copy kept with its draft
 * (src/lib/draft-store.ts) when it is the upstream's answer, else asked of the service again (v2: the
 * job, then its result; v1: the document, or the queued job) — and its file when kept, sent to
 * `POST /api/review/import`. The server imports a job once: one already in the queue is answered as
 * it is.
 *
 * A job whose result cannot be had is skipped, with why. Each job is told as `settled` (imported, in
 * the queue already, or skipped for good: its job failed, the service no longer has it, the server
 * refused it) or `retry` (the service or the server could not be reached, the job is still running):
 * only these are offered again later (import-offer.ts).
 */
import { ApiError, V1JobFailedError } from '../../api/errors';
import { importDocument } from '../../api/review/endpoints';
import type { ImportMetadata } from '@extraction-review/contract/review/schemas';
import { getDocument, getQueuedJob, v1JobFailure } from '../../api/v1/endpoints';
import { hasDocument } from '@extraction-review/contract/v1/schemas';
import { getExtractionResult, getJob } from '../../api/v2/endpoints';
import { describeError } from '../../components/describe-error';
import type { StoredJob } from '../../lib/document-store';
import { loadDraft } from '../../lib/draft-store';

/** Why a job was not imported. */
export type SkipReason =
  /** The upstream's job failed: there is no result to review. */
  | 'job-failed'
  /** The service no longer knows the job or its result (deleted once fetched, or expired). */
  | 'gone'
  /** Still processing upstream (offered again later). */
  | 'unfinished'
  /** The service, or the app server, could not be reached or refused for now (offered again later). */
  | 'unreachable'
  /** The app server refused the job as sent. */
  | 'refused';

/** Reasons that may pass: those jobs are offered again. */
const PASSING: ReadonlySet<SkipReason> = new Set(['unfinished', 'unreachable']);

export interface SkippedJob {
  jobId: string;
  fileName: string;
  reason: SkipReason;
  /** What the service or the server said, in words. */
  detail: string | null;
}

export interface ImportReport {
  total: number;
  /** New documents in the queue. */
  imported: number;
  /** Jobs the queue had already (uploaded through the app, or imported from another browser). */
  alreadyThere: number;
  skipped: SkippedJob[];
}

export interface ImportProgress {
  /** Jobs dealt with so far (imported, there already, or skipped). */
  done: number;
  total: number;
}

export interface ImportOptions {
  signal?: AbortSignal | undefined;
  onProgress?: (progress: ImportProgress) => void;
  /** A job is settled for good: it is not to be offered again. */
  onSettled?: (jobId: string) => void;
}

class Skip extends Error {
  constructor(
    readonly reason: SkipReason,
    readonly detail: string | null = null,
  ) {
    super(reason);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Imports the jobs one after the other; stops (throwing the signal's reason) when aborted. */
export async function importKeptJobs(jobs: readonly StoredJob[], options: ImportOptions = {}) {
  const { signal, onProgress, onSettled } = options;
  const report: ImportReport = { total: jobs.length, imported: 0, alreadyThere: 0, skipped: [] };
  onProgress?.({ done: 0, total: jobs.length });
  for (const [index, job] of jobs.entries()) {
    signal?.throwIfAborted();
    try {
      const result = await resultOf(job, signal);
      const answer = await importDocument(
        { metadata: metadataOf(job, result), result, file: fileOf(job) },
        { signal },
      ).catch((error: unknown) => {
        throw serverSkip(error, signal);
      });
      if (answer.imported) report.imported += 1;
      else report.alreadyThere += 1;
      onSettled?.(job.jobId);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const skip = error instanceof Skip ? error : new Skip('unreachable', describeError(error).title);
      report.skipped.push({
        jobId: job.jobId,
        fileName: job.filename,
        reason: skip.reason,
        detail: skip.detail,
      });
      if (!PASSING.has(skip.reason)) onSettled?.(job.jobId);
    }
    onProgress?.({ done: index + 1, total: jobs.length });
  }
  return report;
}

/** The upstream's answer for the job: the draft's copy when it is one, else the service's. */
async function resultOf(job: StoredJob, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  const draft = await loadDraft(job.jobId).catch(() => null);
  const copy = draft?.result;
  // A v1 review keeps the v2 restatement of its document, which is not the upstream's answer.
  if (isObject(copy) && isObject(job.api === 'v2' ? copy.inference : copy.document)) return copy;
  try {
    return job.api === 'v2' ? await v2Result(job.jobId, signal) : await v1Result(job, signal);
  } catch (error) {
    if (error instanceof Skip || signal?.aborted) throw error;
    throw serviceSkip(error);
  }
}

async function v2Result(jobId: string, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  const { job } = await getJob(jobId, { signal });
  if (job.status === 'Failed') throw new Skip('job-failed', job.error?.detail ?? null);
  if (job.status !== 'Processed' || job.result_url === null) throw new Skip('unfinished');
  return (await getExtractionResult(job.result_url, { signal })) as unknown as Record<string, unknown>;
}

async function v1Result(job: StoredJob, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
  const product = job.v1;
  if (product === null) throw new Skip('gone', 'This browser does not know the job’s v1 product.');
  const ref = { account: product.account, name: product.name, version: product.version };
  // Synchronous: the kept id is the document's.
  if (product.mode === 'sync')
    return (await getDocument(ref, job.jobId, { signal })) as Record<string, unknown>;
  const body = await getQueuedJob(ref, job.jobId, { signal });
  if (hasDocument(body)) return body as Record<string, unknown>;
  const failure = v1JobFailure(body.job);
  if (failure !== undefined) throw new Skip('job-failed', failure.message);
  throw new Skip('unfinished');
}

/** A failure asking the service for the result. */
function serviceSkip(error: unknown): Skip {
  if (error instanceof V1JobFailedError) return new Skip('job-failed', error.message);
  const detail = describeError(error).title;
  if (error instanceof ApiError && (error.status === 404 || error.status === 410))
    return new Skip('gone', detail);
  return new Skip('unreachable', detail);
}

/** A failure sending the job to the app server: its own refusal is for good, the rest may pass. */
function serverSkip(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return error;
  const { title, detail } = describeError(error);
  const words = detail === null ? title : `${title}: ${detail}`;
  if (error instanceof ApiError && [400, 413, 415, 422].includes(error.status ?? 0))
    return new Skip('refused', words);
  return new Skip('unreachable', words);
}

function metadataOf(job: StoredJob, result: Record<string, unknown>): ImportMetadata {
  const fileName = job.filename.trim() || urlName(job.url) || 'document';
  const alias = job.options.alias?.trim();
  if (job.api === 'v2') {
    const inference = result.inference as Record<string, unknown>;
    return {
      apiVersion: 'v2',
      model: job.modelId,
      fileName,
      alias: alias === '' ? null : (alias ?? null),
      upstreamJobId: job.jobId,
      ...(typeof inference.id === 'string' && inference.id !== '' ? { upstreamResultId: inference.id } : {}),
    };
  }
  const document = result.document as Record<string, unknown>;
  const product = job.v1;
  return {
    apiVersion: 'v1',
    model:
      product === null
        ? job.modelId
        : `${product.account}/${product.name}/v${product.version.replace(/^v/i, '')}`,
    fileName,
    alias: null,
    upstreamJobId: job.jobId,
    ...(typeof document.id === 'string' && document.id !== '' ? { upstreamResultId: document.id } : {}),
  };
}

/** The kept file, typed as it was detected when sent (a Blob read back may have lost its type). */
function fileOf(job: StoredJob): Blob | null {
  if (job.file === null) return null;
  if (job.file.type !== '' || job.mimeType === null) return job.file;
  return new Blob([job.file], { type: job.mimeType });
}

function urlName(url: string | null): string | undefined {
  if (url === null) return undefined;
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).at(-1);
    return last === undefined ? undefined : decodeURIComponent(last);
  } catch {
    return undefined;
  }
}

/** "2 skipped: 1 whose job failed, 1 the service no longer has." */
export function describeSkips(skipped: readonly SkippedJob[]): string | null {
  if (skipped.length === 0) return null;
  const counts = new Map<SkipReason, number>();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = [...counts].map(([reason, n]) => REASON_WORDS[reason](n));
  return `${skipped.length} skipped: ${parts.join(', ')}.`;
}

const REASON_WORDS: Record<SkipReason, (n: number) => string> = {
  'job-failed': (n) => `${n} whose job failed upstream`,
  gone: (n) => `${n} the service no longer has`,
  unfinished: (n) => `${n} still processing (offered again later)`,
  unreachable: (n) => `${n} that could not be fetched or sent now (offered again later)`,
  refused: (n) => `${n} the server refused`,
};

export function isPassing(reason: SkipReason): boolean {
  return PASSING.has(reason);
}
