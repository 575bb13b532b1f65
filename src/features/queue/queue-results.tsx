import type { UseQueryResult } from '@tanstack/react-query';
import type { QueuePage as QueuePageData, QueueSort } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { formatClockSeconds } from './format-age';
import { QueuePaging } from './queue-paging';
import { QueueTable } from './queue-table';
import type { useCursorStack } from './use-cursor-stack';
import type { Selection } from './use-selection';

interface Props {
  queue: UseQueryResult<QueuePageData>;
  paging: ReturnType<typeof useCursorStack>;
  /** Some filter is set: an empty page means nothing matches, not an empty queue. */
  filtered: boolean;
  me: string | undefined;
  onClearFilters: () => void;
  sort?: QueueSort | undefined;
  onSort?: ((sort: QueueSort) => void) | undefined;
  /** Admins: the rows ticked for a bulk action. */
  selection?: Selection | undefined;
  /** The tab's event stream is up: changes show as they happen, without the 10 s poll. */
  live?: boolean | undefined;
}

const emptyBox = 'rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600';

/** The page of documents with its paging, or why there is none: loading, an error, nothing there. */
export function QueueResults({
  queue,
  paging,
  filtered,
  me,
  onClearFilters,
  sort,
  onSort,
  selection,
  live = false,
}: Props) {
  const { data } = queue;
  const loadingPage = queue.isPlaceholderData && queue.isFetching;
  return (
    <section aria-label="Documents" className="flex flex-col gap-3">
      <div className="flex min-h-6 flex-wrap items-center gap-3 text-xs text-slate-600">
        {queue.dataUpdatedAt > 0 && !queue.isPlaceholderData && (
          <p>
            Updated{' '}
            <time dateTime={new Date(queue.dataUpdatedAt).toISOString()}>
              {formatClockSeconds(queue.dataUpdatedAt)}
            </time>{' '}
            · {live ? 'live' : 'refreshed every 10 s'}
          </p>
        )}
        {loadingPage && <Spinner label="Loading the page…" />}
      </div>
      {queue.isPending && <Spinner label="Loading the queue…" />}
      {queue.isError && (
        <ProblemAlert
          error={queue.error}
          onRetry={() => void queue.refetch()}
          action={data ? 'The list below may be out of date.' : undefined}
        />
      )}
      {data && data.documents.length === 0 && !loadingPage && (
        <div className={emptyBox}>
          {filtered ? (
            <>
              <p>No document matches these filters.</p>
              <Button variant="secondary" className="mt-3" onClick={onClearFilters}>
                Show every document
              </Button>
            </>
          ) : paging.page > 1 ? (
            <p>No more documents: the queue changed since the previous page.</p>
          ) : (
            <p>The queue is empty: no document has been received for review yet.</p>
          )}
        </div>
      )}
      {data && data.documents.length > 0 && (
        <QueueTable
          documents={data.documents}
          page={paging.page}
          me={me}
          now={queue.dataUpdatedAt}
          stale={queue.isPlaceholderData}
          {...(sort === undefined ? {} : { sort })}
          {...(onSort === undefined ? {} : { onSort })}
          selection={selection}
        />
      )}
      {data && (paging.hasPrevious || data.nextCursor !== null) && (
        <QueuePaging
          page={paging.page}
          hasPrevious={paging.hasPrevious}
          nextCursor={queue.isPlaceholderData ? undefined : data.nextCursor}
          busy={loadingPage}
          onPrevious={paging.back}
          onNext={paging.next}
        />
      )}
    </section>
  );
}
