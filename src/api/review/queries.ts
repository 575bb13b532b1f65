/**
 * React Query options for the review API: one key factory, one `queryOptions` per resource (STYLE.md).
 * Reading the session also hands its CSRF token to csrf.ts, so later writes carry it.
 */
import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../errors';
import { rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { getReviewDocument, getSession, getTimeline, listOperators, listQueue } from './endpoints';
import { reviewKeys } from '../keys';
import type { QueueQuery, SessionResponse } from '@extraction-review/contract/review/schemas';

/** The signed-in operator, or null when nobody is (a 401 is an answer here, not an error). */
export function sessionQueryOptions() {
  return queryOptions({
    queryKey: reviewKeys.session(),
    queryFn: async ({ signal }): Promise<SessionResponse | null> => {
      try {
        const session = await getSession({ signal });
        rememberCsrfToken(session.csrfToken);
        return session;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          rememberCsrfToken(undefined);
          return null;
        }
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function queueQueryOptions(query: Partial<QueueQuery>) {
  return queryOptions({
    queryKey: reviewKeys.queue(query),
    queryFn: ({ signal }) => listQueue(query, { signal }),
    // The queue moves as the team works: kept fresh while shown.
    refetchInterval: 10_000,
  });
}

export function reviewDocumentQueryOptions(id: string) {
  return queryOptions({
    queryKey: reviewKeys.document(id),
    queryFn: ({ signal }) => getReviewDocument(id, { signal }),
  });
}

export function timelineQueryOptions(id: string) {
  return queryOptions({
    queryKey: reviewKeys.timeline(id),
    queryFn: ({ signal }) => getTimeline(id, { signal }),
  });
}

export function operatorsQueryOptions() {
  return queryOptions({
    queryKey: reviewKeys.operators(),
    queryFn: ({ signal }) => listOperators({ signal }),
  });
}
