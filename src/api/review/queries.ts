/**
 * React Query options for the review API: one key factory, one `queryOptions` per resource (STYLE.md).
 * Reading the session also hands its CSRF token to csrf.ts, so later writes carry it.
 */
import { queryOptions, replaceEqualDeep } from '@tanstack/react-query';
import { ApiError } from '../errors';
import { rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import {
  findJobDocument,
  getReviewDocument,
  getSession,
  getTimeline,
  listOperators,
  listQueue,
} from './endpoints';
import { reviewKeys } from '../keys';
import type { QueuePage, QueueQuery, SessionResponse } from '@extraction-review/contract/review/schemas';

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

/** How often a shown queue list is read again while the tab hears no events. */
export const QUEUE_POLL_MS = 10_000;

/**
 * The queue moves as the team works. While the tab's event stream is up (`eventsUp`: useAppEventsUp),
 * the events say what changed and src/app/queue-live-updates.tsx refreshes just that (the row, the
 * counts, a first page): no poll. Before it opens, while it is broken or refused (a 503, a proxy
 * that does not stream), the list shown is read again every QUEUE_POLL_MS.
 */
export function queueQueryOptions(
  query: Partial<QueueQuery>,
  { eventsUp = false }: { eventsUp?: boolean } = {},
) {
  return queryOptions({
    queryKey: reviewKeys.queue(query),
    queryFn: ({ signal }) => listQueue(query, { signal }),
    refetchInterval: eventsUp ? false : QUEUE_POLL_MS,
    structuralSharing: (previous, next) => replaceEqualDeep(previous, keepNewerRows(previous, next)),
  });
}

/**
 * A page read just before a change can land just after the change's row was put in place
 * (queue-live-cache.ts): a row never goes back to an older version of itself. Rows are only ever
 * newer in a later page otherwise (a document's version only grows).
 */
export function keepNewerRows(previous: unknown, next: unknown): unknown {
  const before = previous as QueuePage | undefined;
  const after = next as QueuePage | undefined;
  if (before?.documents === undefined || after?.documents === undefined) return next;
  const kept = new Map(before.documents.map((d) => [d.id, d]));
  let changed = false;
  const documents = after.documents.map((d) => {
    const older = kept.get(d.id);
    if (older === undefined || older.version <= d.version) return d;
    changed = true;
    return older;
  });
  return changed ? { ...after, documents } : next;
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

/**
 * The review's document an upstream job brought, or null when the server kept none (a job sent
 * elsewhere, or before the app server kept uploads): the job's page then reviews the job itself.
 * Asked again while the document is still processing, until its result is in.
 */
export function jobDocumentQueryOptions(apiVersion: 'v1' | 'v2', jobId: string) {
  return queryOptions({
    queryKey: reviewKeys.jobDocument(apiVersion, jobId),
    queryFn: async ({ signal }) => {
      try {
        return (await findJobDocument(apiVersion, jobId, { signal })).document;
      } catch (error) {
        if (error instanceof ApiError && (error.status === 404 || error.status === 401)) return null;
        throw error;
      }
    },
    refetchInterval: (query) => (query.state.data?.state === 'processing' ? 1_500 : false),
  });
}
