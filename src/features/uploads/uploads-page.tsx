/**
 * The team's Uploads (`/uploads`): every document sent through the app, from the server (the review
 * store), newest first: who sent it, when, its file and model, where it stands, and a link to its one
 * review. "Mine" (the default) or "Everyone's"; paged like the queue; kept fresh by the queue's events
 * (queue-live-updates.tsx refreshes every list under the queue's key) and a slow poll.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { queueQueryOptions, sessionQueryOptions } from '../../api/review/queries';
import { useAppEventsUp } from '../../lib/use-app-events-up';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { useCursorStack } from '../../lib/use-cursor-stack';
import { UploadsTable } from './uploads-table';

export type Whose = 'mine' | 'everyone';

const PAGE_SIZE = 25;

/** `?who=everyone` in the address, so a reload or a shared link keeps the choice; mine by default. */
function useWhose(): [Whose, (whose: Whose) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const whose: Whose = new URLSearchParams(search).get('who') === 'everyone' ? 'everyone' : 'mine';
  const setWhose = (next: Whose) =>
    navigate(next === 'mine' ? location : `${location}?who=everyone`, { replace: true });
  return [whose, setWhose];
}

export function UploadsPage() {
  const session = useQuery(sessionQueryOptions());
  const me = session.data?.operator.id;
  const [whose, setWhose] = useWhose();
  const paging = useCursorStack(whose);
  const eventsUp = useAppEventsUp();
  const uploads = useQuery({
    ...queueQueryOptions(
      {
        limit: PAGE_SIZE,
        ...(whose === 'mine' ? { uploadedBy: me } : {}),
        ...(paging.cursor === undefined ? {} : { cursor: paging.cursor }),
      },
      { eventsUp },
    ),
    placeholderData: keepPreviousData,
    // "Mine" means nothing until the session says who that is.
    enabled: whose === 'everyone' || me !== undefined,
  });
  const { data } = uploads;
  const loadingPage = uploads.isPlaceholderData && uploads.isFetching;

  return (
    <section aria-labelledby="uploads-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="uploads-heading" className="text-2xl font-semibold">
            Uploads
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            What the team sent through the app, newest first. Open one to review it.
          </p>
        </div>
        <WhoseChoice whose={whose} onChange={setWhose} />
      </div>
      {uploads.isPending && <Spinner label="Loading the uploads…" />}
      {uploads.isError && (
        <ProblemAlert
          error={uploads.error}
          onRetry={() => void uploads.refetch()}
          action={data ? 'The list below may be out of date.' : undefined}
        />
      )}
      {data && data.documents.length === 0 && !loadingPage && (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          {whose === 'mine'
            ? 'You have not uploaded anything yet. Send a document from New extraction, or see everyone’s uploads.'
            : 'Nobody has uploaded anything yet.'}
        </p>
      )}
      {data && data.documents.length > 0 && <UploadsTable documents={data.documents} me={me} />}
      {data && (paging.hasPrevious || data.nextCursor !== null) && (
        <nav aria-label="Pages of the uploads" className="flex items-center gap-3">
          <Button variant="secondary" disabled={!paging.hasPrevious || loadingPage} onClick={paging.back}>
            <span aria-hidden="true">←</span> Newer
          </Button>
          <span className="text-sm text-slate-700 tabular-nums">Page {paging.page}</span>
          <Button
            variant="secondary"
            disabled={data.nextCursor === null || loadingPage}
            onClick={() => {
              if (data.nextCursor !== null) paging.next(data.nextCursor);
            }}
          >
            Older <span aria-hidden="true">→</span>
          </Button>
          {loadingPage && <Spinner label="Loading the page…" />}
        </nav>
      )}
    </section>
  );
}

function WhoseChoice({ whose, onChange }: { whose: Whose; onChange: (whose: Whose) => void }) {
  const option = (value: Whose, label: string) => (
    <label className="cursor-pointer rounded-md px-3 py-1.5 text-sm has-[:checked]:bg-white has-[:checked]:font-medium has-[:checked]:text-blue-900 has-[:checked]:shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-600">
      <input
        type="radio"
        name="uploads-whose"
        value={value}
        checked={whose === value}
        onChange={() => onChange(value)}
        className="sr-only"
      />
      {label}
    </label>
  );
  return (
    <fieldset className="flex rounded-lg bg-slate-100 p-1">
      <legend className="sr-only">Whose uploads</legend>
      {option('mine', 'Mine')}
      {option('everyone', 'Everyone’s')}
    </fieldset>
  );
}
