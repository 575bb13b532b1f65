/**
 * A job sent through the app server is a server-kept document with ONE review: the queue's
 * (`/review/{id}`). The job's page asks which document its job brought and, once its result is in,
 * replaces itself with that review (history.replace: Back leads to where the operator came from,
 * not to a page that sends them forward again). A job the server kept nothing of (sent elsewhere,
 * or before uploads were kept) is reviewed on the job's page as before.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { reviewKeys } from '../api/keys';
import { takeDocument } from '../api/review/endpoints';
import { jobDocumentQueryOptions } from '../api/review/queries';

export type JobDocumentStatus =
  /** Asking the server. */
  | { kind: 'checking' }
  /** The result is in: on the way to the document's review. */
  | { kind: 'opening'; documentId: string }
  /** Kept by the server, its result not in yet (or its job failed): the job's page follows it. */
  | { kind: 'kept'; documentId: string }
  /** Not kept by the server: the job's own review. */
  | { kind: 'none' };

export function reviewPath(documentId: string): string {
  return `/review/${encodeURIComponent(documentId)}`;
}

export function useJobDocument(apiVersion: 'v1' | 'v2', jobId: string): JobDocumentStatus {
  const query = useQuery(jobDocumentQueryOptions(apiVersion, jobId));
  const [, navigate] = useLocation();
  const document = query.data;
  // A failed job stays on its page, which says why (the queue's review has nothing to show).
  const ready = document != null && document.state !== 'processing' && document.state !== 'failed';
  const target = ready ? document.id : null;
  const waiting = ready && document.state === 'to_review';
  const queryClient = useQueryClient();
  useEffect(() => {
    if (target === null) return;
    let gone = false;
    // Whoever opens a job's page means to review it: a waiting document is taken for them first (as
    // "Start reviewing" does), so its review opens editable, with its decision bar. Taken by
    // someone else meanwhile, it opens as they hold it.
    const taken = waiting
      ? takeDocument(target).then(
          (answer) => queryClient.setQueryData(reviewKeys.document(target), answer),
          () => undefined,
        )
      : Promise.resolve();
    void taken.then(() => {
      if (!gone) navigate(reviewPath(target), { replace: true });
    });
    return () => {
      gone = true;
    };
  }, [target, waiting, navigate, queryClient]);
  if (query.isPending) return { kind: 'checking' };
  // The server could not be asked (it is down, say): the job's own page, as for a job it never kept.
  if (document == null) return { kind: 'none' };
  return ready ? { kind: 'opening', documentId: document.id } : { kind: 'kept', documentId: document.id };
}
