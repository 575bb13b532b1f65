/**
 * `queryOptions` per v1 resource. The queued job polls like the v2 job (v2/queries.ts) until it is
 * `completed` or `failed`, or until the followed 302 brought the document itself.
 */
import { queryOptions } from '@tanstack/react-query';
import { isRetryableError } from '../errors';
import { documentKeys, feedbackKeys, v1JobKeys } from '../keys';
import { FIRST_POLL_DELAY_MS, MAX_JOB_POLLS, POLL_INTERVAL_MS } from '../v2/queries';
import { getDocument, getFeedback, getQueuedJob } from './endpoints';
import {
  V1_TERMINAL_JOB_STATUSES,
  hasDocument,
  type V1ProductRef,
  type V1QueueResponse,
} from '@extraction-review/contract/v1/schemas';

export interface V1PollState {
  data: V1QueueResponse | undefined;
  dataUpdateCount: number;
  error: unknown;
}

/** Same cadence as v2 (2 s, then 1.5 s); `false` once finished, after a lasting error, or past MAX_JOB_POLLS. */
export function v1JobRefetchInterval({ data, dataUpdateCount, error }: V1PollState): number | false {
  if (error != null && !isRetryableError(error)) return false;
  if (data && (hasDocument(data) || V1_TERMINAL_JOB_STATUSES.has(data.job.status))) return false;
  if (dataUpdateCount >= MAX_JOB_POLLS) return false;
  return dataUpdateCount <= 1 ? FIRST_POLL_DELAY_MS : POLL_INTERVAL_MS;
}

export function v1JobQueryOptions(product: V1ProductRef, jobId: string) {
  return queryOptions({
    queryKey: v1JobKeys.detail(product, jobId),
    queryFn: ({ signal }) => getQueuedJob(product, jobId, { signal }),
    refetchInterval: (query) => v1JobRefetchInterval(query.state),
  });
}

/** A prediction's document does not change once made. */
export function documentQueryOptions(product: V1ProductRef, documentId: string) {
  return queryOptions({
    queryKey: documentKeys.detail(product, documentId),
    queryFn: ({ signal }) => getDocument(product, documentId, { signal }),
    staleTime: Infinity,
  });
}

/** The stored feedback; the send mutation writes its answer here with `setQueryData`. */
export function feedbackQueryOptions(documentId: string) {
  return queryOptions({
    queryKey: feedbackKeys.detail(documentId),
    queryFn: ({ signal }) => getFeedback(documentId, { signal }),
  });
}
