import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { timelineCsvUrl } from '../../../api/review/endpoints';
import { timelineQueryOptions } from '../../../api/review/queries';
import { ProblemAlert } from '../../../components/problem-alert';
import { Spinner } from '../../../components/ui/spinner';
import { useTitleOf } from '../field-titles';
import { describeEvent } from './describe-event';
import { DocumentDeliveries } from './document-deliveries';
import { formatWhen } from './format-time';

interface Props {
  documentId: string;
  /** Admins may download the timeline as CSV. */
  isAdmin: boolean;
}

/**
 * The document's timeline, read when shown (its tab opened): who did what when (received, taken,
 * each correction as field (its title, the path on hover): before → after, decisions with their reasons), oldest first as the
 * server lists it; then what its confirmation sent on the way back (webhook, feedback, RAG) and
 * whether it arrived.
 */
export function HistoryPanel({ documentId, isAdmin }: Props) {
  const timeline = useQuery(timelineQueryOptions(documentId));
  const events = timeline.data?.events ?? [];
  const titleOf = useTitleOf();

  return (
    <section aria-label="History" className="flex flex-col gap-2">
      {timeline.isPending && <Spinner label="Loading the history…" />}
      {timeline.isError && <ProblemAlert error={timeline.error} onRetry={() => void timeline.refetch()} />}
      {timeline.isSuccess && events.length === 0 && (
        <p className="text-sm text-slate-700">Nothing has happened to this document yet.</p>
      )}
      {events.length > 0 && (
        <ol aria-label="Events" className="flex flex-col gap-1 text-sm">
          {events.map((event, index) => {
            const { who, what, path } = describeEvent(event, titleOf);
            return (
              <li key={`${event.at}-${index}`} className="border-t border-slate-100 pt-1 first:border-0">
                <time dateTime={event.at} className="text-xs text-slate-600">
                  {formatWhen(event.at)}
                </time>{' '}
                <span className="font-medium">{who}</span>:{' '}
                <span className="break-words" title={path}>
                  {what}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <DocumentDeliveries documentId={documentId} />
      {isAdmin && (
        <a
          href={timelineCsvUrl(documentId)}
          download
          className="self-start text-sm font-medium text-blue-800 underline"
        >
          Download CSV
        </a>
      )}
    </section>
  );
}

/** The history folded under its heading, for a page without the review's tabs (nothing to review yet). */
export function HistoryDisclosure(props: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-md border border-slate-300 bg-white">
      <h2 id={`${id}-heading`} className="text-sm font-semibold">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((o) => !o)}
          className="flex w-full items-center justify-between px-3 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          History
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        </button>
      </h2>
      {open && (
        <div id={`${id}-body`} className="max-h-72 overflow-y-auto px-3 pb-3">
          <HistoryPanel {...props} />
        </div>
      )}
    </section>
  );
}
