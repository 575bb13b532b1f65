/**
 * `queryOptions` per v2 resource (TanStack `guides/query-options.md`): one definition reused by
 * `useQuery`, prefetching and `setQueryData`. Polling is an option of the job query, not a loop
 * (`guides/polling.md`).
 */
import { queryOptions } from '@tanstack/react-query';
import { isRetryableError } from '../errors';
import { inferenceKeys, jobKeys, modelKeys } from '../keys';
import { getExtractionResult, getJob, searchModels } from './endpoints';
import { isTerminalJobStatus, type JobResponse, type SearchModelsParams } from './schemas';

/** The official client's polling defaults (API-FACTS v2): first poll 2 s after enqueueing, then every 1.5 s. */
export const FIRST_POLL_DELAY_MS = 2_000;
export const POLL_INTERVAL_MS = 1_500;
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

/**
 * When to poll the job next: `false` once it is `Processed` or `Failed`, after an error that cannot pass
 * on retry (a 404, a schema mismatch), or past MAX_JOB_POLLS.
 */
export function jobRefetchInterval({ data, dataUpdateCount, error }: PollState): number | false {
  if (error != null && !isRetryableError(error)) return false;
  if (data && isTerminalJobStatus(data.job.status)) return false;
  if (dataUpdateCount >= MAX_JOB_POLLS) return false;
  return dataUpdateCount <= 1 ? FIRST_POLL_DELAY_MS : POLL_INTERVAL_MS;
}

export function jobQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: jobKeys.detail(jobId),
    queryFn: ({ signal }) => getJob(jobId, { signal }),
    refetchInterval: (query) => jobRefetchInterval(query.state),
    // A finished job no longer changes its status or result: no refetch on mount or focus.
    staleTime: (query) =>
      query.state.data && isTerminalJobStatus(query.state.data.job.status) ? Infinity : 0,
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
