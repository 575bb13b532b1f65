/**
 * `queryOptions` per v2 resource (TanStack `guides/query-options.md`): one definition reused by
 * `useQuery`, prefetching and `setQueryData`. Polling is an option of the job query, not a loop
 * (`guides/polling.md`).
 */
import { focusManager, queryOptions } from '@tanstack/react-query';
import { ApiError, isRetryableError } from '../errors';
import { inferenceKeys, jobKeys, modelKeys } from '../keys';
import { getExtractionResult, getJob, searchModels } from './endpoints';
import {
  isTerminalJobStatus,
  type Job,
  type JobResponse,
  type SearchModelsParams,
} from '@extraction-review/contract/v2/schemas';

/** The official client's polling defaults (API-FACTS v2): first poll 2 s after enqueueing, then every 1.5 s. */
export const FIRST_POLL_DELAY_MS = 2_000;
export const POLL_INTERVAL_MS = 1_500;
/** While the tab is hidden nobody watches: one poll every 15 s keeps the list fresh without the traffic. */
export const HIDDEN_POLL_INTERVAL_MS = 15_000;
/** After a 429 whose `Retry-After` we do not know: a few intervals. */
export const RATE_LIMITED_POLL_DELAY_MS = 5_000;
/** "Processing cannot be cancelled; it times out at 590 s" (API-FACTS v2 "Limits"). */
export const PROCESSING_LIMIT_MS = 590_000;
/**
 * When polling gives up on a job still `Processing`: the limit plus a margin for the service's own
 * timer and for the difference between its clock (`created_at`) and ours.
 */
export const GIVE_UP_AFTER_MS = PROCESSING_LIMIT_MS + 30_000;
/**
 * Webhooks are called once a job is final, in the background, with retries (`job.webhooks` shows them
 * going on): a finished job is polled this often, for at most WEBHOOK_FOLLOW_MS after it completed,
 * until every delivery has an outcome.
 */
export const WEBHOOK_POLL_INTERVAL_MS = 3_000;
export const WEBHOOK_FOLLOW_MS = 3 * 60_000;
/**
 * A safety stop. Processing times out after 590 s and the job then turns `Failed`, so ten minutes of
 * polls is always enough; past it something is wrong and the UI should say so rather than poll forever.
 */
export const MAX_JOB_POLLS = Math.ceil((10 * 60 * 1000) / POLL_INTERVAL_MS);

export interface PollState {
  data: JobResponse | undefined;
  /** How many times data arrived (the enqueue response seeded with `setQueryData` counts as one). */
  dataUpdateCount: number;
  error: unknown;
}

export interface PollContext {
  /** `Date.now()`. */
  now: number;
  /** The tab is hidden (`document.visibilityState`, through TanStack's focusManager). */
  hidden: boolean;
}

const elapsedSince = (timestamp: string | null, now: number): number => {
  const at = timestamp === null ? Number.NaN : Date.parse(timestamp);
  return Number.isNaN(at) ? 0 : now - at;
};

/** Some webhook delivery of a final job is still being attempted. */
export function hasPendingWebhooks(job: Job): boolean {
  return job.webhooks.some((webhook) => webhook.status === 'Processing');
}

/** The job will not change any more: final, and every webhook delivery has its outcome. */
export function isJobSettled(job: Job): boolean {
  return isTerminalJobStatus(job.status) && !hasPendingWebhooks(job);
}

/** Polling stopped on a job still `Processing` past the processing limit: the UI says so. */
export function hasGivenUpOnJob(job: Job, now: number = Date.now()): boolean {
  return job.status === 'Processing' && elapsedSince(job.created_at, now) > GIVE_UP_AFTER_MS;
}

/**
 * When to poll the job next, or `false` to stop:
 * - a 429 (once the HTTP layer's own waits are spent): after its `Retry-After`;
 * - another error that cannot pass on retry (a 404, a schema mismatch): stop;
 * - final, every webhook delivered (or no longer worth following): stop; deliveries still under way:
 *   every WEBHOOK_POLL_INTERVAL_MS;
 * - `Processing` past GIVE_UP_AFTER_MS, or past MAX_JOB_POLLS: stop (hasGivenUpOnJob tells the UI);
 * - otherwise the official client's rhythm, 2 s then 1.5 s, or every 15 s while the tab is hidden.
 */
export function jobRefetchInterval(
  { data, dataUpdateCount, error }: PollState,
  { now, hidden }: PollContext = { now: Date.now(), hidden: !focusManager.isFocused() },
): number | false {
  const slowWhenHidden = (ms: number) => (hidden ? Math.max(ms, HIDDEN_POLL_INTERVAL_MS) : ms);
  if (error instanceof ApiError && error.isRateLimited) {
    const wait = error.retryAfterSeconds === undefined ? undefined : error.retryAfterSeconds * 1000;
    return slowWhenHidden(Math.max(POLL_INTERVAL_MS, wait ?? RATE_LIMITED_POLL_DELAY_MS));
  }
  if (error != null && !isRetryableError(error)) return false;
  if (data && isTerminalJobStatus(data.job.status)) {
    const following = elapsedSince(data.job.completed_at, now) < WEBHOOK_FOLLOW_MS;
    return hasPendingWebhooks(data.job) && following ? slowWhenHidden(WEBHOOK_POLL_INTERVAL_MS) : false;
  }
  if (data && hasGivenUpOnJob(data.job, now)) return false;
  if (dataUpdateCount >= MAX_JOB_POLLS) return false;
  return slowWhenHidden(dataUpdateCount <= 1 ? FIRST_POLL_DELAY_MS : POLL_INTERVAL_MS);
}

export function jobQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: jobKeys.detail(jobId),
    queryFn: ({ signal }) => getJob(jobId, { signal }),
    refetchInterval: (query) => jobRefetchInterval(query.state),
    // Hidden tabs keep polling, slowly (jobRefetchInterval); back in view, a job still moving is
    // fetched at once and the normal rhythm resumes.
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: (query) => (query.state.data ? !isJobSettled(query.state.data.job) : false),
    // A settled job no longer changes its status or result: no refetch on mount or focus.
    staleTime: (query) => (query.state.data && isJobSettled(query.state.data.job) ? Infinity : 0),
  });
}

/**
 * The result behind a job's `result_url`. It never changes, and a model may delete it once fetched (spec
 * 3.3: a later request gets 404), so it is fetched once and kept for the session.
 */
export function extractionResultQueryOptions(resultUrl: string) {
  return queryOptions({
    queryKey: inferenceKeys.forResultUrl(resultUrl),
    queryFn: ({ signal }) => getExtractionResult(resultUrl, { signal }),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/** The models of the account; they change rarely. */
export function modelsQueryOptions(params: SearchModelsParams = {}) {
  return queryOptions({
    queryKey: modelKeys.search(params),
    queryFn: ({ signal }) => searchModels(params, { signal }),
    staleTime: 5 * 60 * 1000,
  });
}
