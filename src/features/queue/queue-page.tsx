import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { queueQueryOptions, sessionQueryOptions } from '../../api/review/queries';
import { useAppEventsUp } from '../../lib/use-app-events-up';
import { BulkBar } from './bulk-bar';
import { ImportBanner } from './import-banner';
import { QueueCounts } from './queue-counts';
import { QueueFiltersForm } from './queue-filters';
import { QueueResults } from './queue-results';
import { SavedQueues } from './saved-queues';
import { StartReviewingButton } from './start-reviewing-button';
import { useCursorStack } from './use-cursor-stack';
import { useSelection } from './use-selection';
import {
  hasFilters,
  ME,
  NO_FILTERS,
  serialiseQueueFilters,
  toQueueQuery,
  useQueueFilters,
} from '../../lib/queue-filters';

/**
 * The team's queue (`/queue`, for a signed-in operator): how many documents are in each state, the
 * documents themselves filtered from the URL, page by page, and "Start reviewing" to take the next one.
 * Once, the jobs this browser kept before the team queue existed are offered for import (ImportBanner).
 */
export function QueuePage() {
  const session = useQuery(sessionQueryOptions());
  const operator = session.data?.operator;
  const [filters, setFilters] = useQueueFilters();
  const paging = useCursorStack(serialiseQueueFilters(filters));
  const query = toQueueQuery(filters, { me: operator?.id, cursor: paging.cursor });
  const eventsUp = useAppEventsUp();
  const queue = useQuery({
    ...queueQueryOptions(query, { eventsUp }),
    // The page shown stays while the next loads, so the table does not jump to a spinner.
    placeholderData: keepPreviousData,
    // "Me" means nothing until the session says who that is.
    enabled: filters.operator !== ME || operator !== undefined,
  });

  const clearFilters = () => setFilters(NO_FILTERS);
  // Admins tick documents of the page shown for the bulk actions (issue 21).
  const isAdmin = operator?.role === 'admin';
  const shown = queue.data?.documents;
  const shownIds = useMemo(() => (shown ?? []).map((d) => d.id), [shown]);
  const selection = useSelection(`${serialiseQueueFilters(filters)}#${String(paging.page)}`, shownIds);

  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-col gap-6 p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">Team queue</h1>
          <p className="mt-1 text-sm text-slate-600">
            Every document the team has to check. Start reviewing takes the next waiting one the filters show.
          </p>
        </div>
        <StartReviewingButton filters={filters} me={operator?.id} />
      </div>
      <DeletedNotice />
      <ImportBanner />
      <SavedQueues filters={filters} isAdmin={operator?.role === 'admin'} />
      <QueueCounts
        counts={queue.data?.counts}
        selected={filters.state}
        onSelect={(state) => setFilters({ state })}
      />
      <QueueFiltersForm filters={filters} onChange={setFilters} operator={operator} />
      {isAdmin && shown !== undefined && <BulkBar documents={shown} selection={selection} />}
      <QueueResults
        queue={queue}
        paging={paging}
        filtered={hasFilters(filters)}
        me={operator?.id}
        onClearFilters={clearFilters}
        sort={filters.sort ?? '-received'}
        onSort={(sort) => setFilters({ sort: sort === '-received' ? undefined : sort })}
        selection={isAdmin ? selection : undefined}
        live={eventsUp}
      />
    </main>
  );
}

/** After an admin deleted a document from its review page: its name, carried in the history entry. */
function DeletedNotice() {
  const [deleted] = useState<string | null>(() => {
    const state: unknown = window.history.state;
    const name =
      typeof state === 'object' && state !== null ? (state as { deleted?: unknown }).deleted : null;
    return typeof name === 'string' ? name : null;
  });
  if (deleted === null) return null;
  return (
    <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">
      “{deleted}” was deleted, with its file, values and history.
    </p>
  );
}
