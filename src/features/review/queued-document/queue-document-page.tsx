import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect } from 'react';
import { Link, useSearch } from 'wouter';
import { ApiError } from '../../../api/errors';
import { reviewDocumentQueryOptions, sessionQueryOptions } from '../../../api/review/queries';
import { DuplicateBadge } from '../../../components/duplicate-badge';
import { ProblemAlert } from '../../../components/problem-alert';
import { Spinner } from '../../../components/ui/spinner';
import { parseQueueFilters, queueHref } from '../../../lib/queue-filters';
import { preloadDocumentViewer, useOpenDocumentAhead } from '../viewer/preload';
import { moveOnStore } from './move-on';
import { QueueReview } from './queue-review';
import { useDocumentFile } from './use-document-file';

/** How often a document still being extracted is read again (live queue events come sooner). */
const PROCESSING_POLL_MS = 5_000;
/** A document read this recently is not read again when the page mounts. */
const DOCUMENT_FRESH_MS = 2_000;

/**
 * One document of the team queue (`/review/{id}`) for the signed-in operator: loaded, named, then
 * reviewed by its state (queue-review.tsx).
 */
export function QueueDocumentPage({ documentId }: { documentId: string }) {
  const session = useQuery(sessionQueryOptions());
  const query = useQuery({
    ...reviewDocumentQueryOptions(documentId),
    // Read just before the page mounted (asked for before the app rendered, review-data-early.ts):
    // not read again for it. Changes come by invalidation, live events and the poll below.
    staleTime: DOCUMENT_FRESH_MS,
    refetchInterval: (q) => (q.state.data?.document.state === 'processing' ? PROCESSING_POLL_MS : false),
  });
  const document = query.data?.document;
  // The review is drawn in a transition, a few milliseconds at a time, not in one long task: the
  // document's page opens meanwhile (its file arrives with the document) and draws sooner.
  const shown = useDeferredValue(document);
  const operator = session.data?.operator;
  // Taken from a filtered queue: the way back shows the same filters.
  const backToQueue = queueHref(parseQueueFilters(useSearch()));
  // The viewer and pdf.js load, and the document's file is downloaded and opened, while the
  // document is fetched (its file's address is known from its id).
  useEffect(preloadDocumentViewer, []);
  // Which document is open, for a move on under way (move-on.ts): one left is not moved under the operator.
  useEffect(() => {
    moveOnStore.show(documentId);
    return () => {
      if (moveOnStore.showing() === documentId) moveOnStore.show(null);
    };
  }, [documentId]);
  const file = useDocumentFile(documentId);
  useOpenDocumentAhead(file.data?.file, file.data?.mimeType);

  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-2 px-4 pt-2 pb-0">
      {/* One line: the file name is what tells six invoices of one batch apart; the alias (the
          batch's name, often) beside it, smaller. Both cut short, the whole in their tooltips. */}
      <div className="flex min-w-0 items-baseline gap-3">
        <h1 className="min-w-0 truncate text-lg font-semibold" title={document?.fileName}>
          {document ? document.fileName : 'Document'}
        </h1>
        {document?.alias && (
          <span className="min-w-0 shrink truncate text-sm text-slate-600" title={`Alias: ${document.alias}`}>
            {document.alias}
          </span>
        )}
        {document && <DuplicateBadge duplicateOf={document.duplicateOf} />}
        <Link href={backToQueue} className="ml-auto shrink-0 text-sm font-medium text-blue-800 underline">
          Back to the queue
        </Link>
      </div>
      {(query.isPending || session.isPending) && <Spinner label="Loading the document…" />}
      {query.isError && !document && (
        <ProblemAlert
          error={query.error}
          onRetry={() => void query.refetch()}
          action={
            query.error instanceof ApiError && query.error.status === 404
              ? 'There is no such document in the review: it was removed, or the address is wrong.'
              : undefined
          }
        />
      )}
      {session.isError && <ProblemAlert error={session.error} onRetry={() => void session.refetch()} />}
      {shown && operator && <QueueReview key={shown.id} document={shown} operator={operator} />}
    </main>
  );
}
