/**
 * On a review's address, what the review needs is asked for before the app renders, on the app's
 * own query client (handed to the app by `earlyQueryClient`), so that the routes find it under way
 * or done: the session, and
 * - a job's page (`/jobs/{id}`): its document as kept in this browser, opened ahead at once, then
 *   the result (kept with it in the same record, or asked for: of the finished job kept with it, or of
 *   the job asked for);
 * - a queued document (`/review/{id}`): the document and its file together (the file's address is
 *   known from the id), the file opened ahead as it arrives.
 * Without waiting for the session: each request carries the cookie and the server answers 401 when
 * nobody is signed in, which the routes, rendered once the session is known, never show (a query
 * refused is asked again at sign-in, use-session.ts). The worker and viewer code start earlier
 * still (start-review-early.ts).
 */
import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryOptions, reviewDocumentQueryOptions } from '../api/review/queries';
import { extractionResultQueryOptions, jobQueryOptions } from '../api/v2/queries';
import type { ExtractionResponse, JobResponse } from '@extraction-review/contract/v2/schemas';
import { keptResult, keptSettledJob } from '../features/jobs/kept-job';
import { documentFileQueryOptions } from '../features/review/queued-document/use-document-file';
import { openDocumentAhead } from '../features/review/viewer/preload';
import { createQueryClient } from './query-client';
import { earlyReview } from './review-paths';
import { storedDocumentQueryOptions } from './stored-document-query';

/**
 * How long the early hold of an opened document lasts: the route and the viewer hold it by then (it
 * would otherwise stay open for as long as the page).
 */
const EARLY_HOLD_MS = 10_000;

let client: QueryClient | undefined;

/** The query client the review's data was asked for on, if it was: the app's. */
export function earlyQueryClient(): QueryClient | undefined {
  return client;
}

function openAheadForAWhile(file: Blob, mimeType: string | null): void {
  setTimeout(openDocumentAhead(file, mimeType), EARLY_HOLD_MS);
}

function startJob(queryClient: QueryClient, jobId: string): void {
  const result = (job: JobResponse | undefined, kept: ExtractionResponse | undefined) => {
    const url = job?.job.status === 'Processed' ? job.job.result_url : null;
    if (!url) return;
    // A result kept with the document is there at once, read with it: no request.
    if (kept) queryClient.setQueryData(extractionResultQueryOptions(url).queryKey, kept);
    else void queryClient.prefetchQuery(extractionResultQueryOptions(url));
  };
  queryClient
    .fetchQuery(storedDocumentQueryOptions(jobId))
    .then((stored) => {
      if (stored) openAheadForAWhile(stored.file, stored.mimeType);
      // A finished job kept here is not asked for again (the route shows it as kept), nor a result
      // kept with the document.
      const kept = keptSettledJob(stored?.settledJob);
      const keptAnswer = keptResult(stored?.settledResult);
      if (kept) result(kept, keptAnswer);
      else
        void queryClient.fetchQuery(jobQueryOptions(jobId)).then(
          (job) => result(job, keptAnswer),
          () => undefined,
        );
    })
    .catch(() => undefined); // the route reads the store again and says what went wrong
}

function startQueueDocument(queryClient: QueryClient, documentId: string): void {
  queryClient
    .fetchQuery(documentFileQueryOptions(documentId))
    .then((kept) => kept && openAheadForAWhile(kept.file, kept.mimeType))
    .catch(() => undefined); // asked again by the page, which says what went wrong
  void queryClient.prefetchQuery(reviewDocumentQueryOptions(documentId));
}

/** On a review's address, a query client with the review's data asked for; undefined elsewhere. */
export function startReviewData(pathname: string): QueryClient | undefined {
  const review = earlyReview(pathname);
  if (!review) return undefined;
  const queryClient = createQueryClient();
  // The review's own requests first: the app server answers in turn, and the file is the longest.
  if (review.kind === 'job') startJob(queryClient, review.id);
  else startQueueDocument(queryClient, review.id);
  void queryClient.prefetchQuery(sessionQueryOptions());
  return queryClient;
}

if (typeof location !== 'undefined') client = startReviewData(location.pathname);
