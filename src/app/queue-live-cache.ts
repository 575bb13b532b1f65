/**
 * What a queue event changes in this tab's cache (issue 22): with twenty operators at work every
 * open tab hears every change, so a change is applied where it shows and nowhere else, instead of
 * reading every queue list again (a page and the counts over the whole table each).
 *
 * - A document shown in a cached list page: its one row is read (`GET …/documents/{id}/row`) and put in
 *   place in every page that shows it, or taken out when it is gone or no longer fits the list's filters.
 * - A document no cached page shows (a new one): the first page of each shown list that puts new
 *   documents first (`-received`, the default) is read again; deeper pages never are.
 * - The counts per state of each shown list's filters are read again (`GET /api/review/counts`), and
 *   the saved queues' waiting counts.
 *
 * Bursts are coalesced: each of these runs at once, then at most once per COALESCE_MS per row, list
 * or filter set, with what came meanwhile.
 */
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../api/errors';
import { reviewKeys } from '../api/keys';
import { getQueueRow, queueCounts } from '../api/review/endpoints';
import { savedQueuesKey } from '../api/review/saved-queue-endpoints';
import type { QueueEvent } from '../api/v2/app-events';
import type {
  QueueDocument,
  QueueFilterQuery,
  QueuePage,
  QueueQuery,
  SessionResponse,
  StateCounts,
} from '@extraction-review/contract/review/schemas';

export const COALESCE_MS = 1_000;

/** The reads a change needs; tests pass their own. */
export interface LiveQueueReads {
  /** The document as a list row shows it, or null once it is deleted. */
  row(id: string): Promise<QueueDocument | null>;
  counts(filters: Partial<QueueFilterQuery>): Promise<StateCounts>;
}

const serverReads: LiveQueueReads = {
  row: async (id) => {
    try {
      return (await getQueueRow(id)).document;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  },
  counts: async (filters) => (await queueCounts(filters)).counts,
};

export interface QueueLiveCache {
  onQueue(event: QueueEvent): void;
  /** Drops what is waiting for its window (the tab signed out, or the component went away). */
  dispose(): void;
}

export function createQueueLiveCache(
  client: QueryClient,
  { reads = serverReads, windowMs = COALESCE_MS }: { reads?: LiveQueueReads; windowMs?: number } = {},
): QueueLiveCache {
  const throttle = createThrottle(windowMs);
  const me = () => client.getQueryData<SessionResponse | null>(reviewKeys.session())?.operator.id;

  const replaceRow = (key: QueryKey, id: string, row: QueueDocument | null) =>
    client.setQueryData<QueuePage>(key, (page) =>
      page === undefined
        ? page
        : {
            ...page,
            documents: page.documents.flatMap((d) => (d.id !== id ? [d] : row === null ? [] : [row])),
          },
    );

  const refreshRow = async (id: string) => {
    let row: QueueDocument | null;
    try {
      row = await reads.row(id);
    } catch {
      // Not read (the server away for a moment): the pages showing it are read again instead.
      for (const list of listQueries(client).filter((l) => shows(l.page, id)))
        void client.invalidateQueries({ queryKey: list.key, exact: true });
      return;
    }
    for (const list of listQueries(client)) {
      const shown = list.page?.documents.find((d) => d.id === id);
      if (shown === undefined) continue;
      if (row === null || !fitsFilters(row, list.query, me())) replaceRow(list.key, id, null);
      else if (row.version < shown.version)
        continue; // the page was read again meanwhile, newer
      else if (!canTellPlace(list.query, shown, row))
        void client.invalidateQueries({ queryKey: list.key, exact: true });
      else replaceRow(list.key, id, row);
    }
  };

  const refreshCounts = async () => {
    const byFilters = new Map<string, { filters: Partial<QueueFilterQuery>; lists: ListQuery[] }>();
    for (const list of listQueries(client)) {
      const filters = filtersOf(list.query);
      const hash = hashKey([filters]);
      const group = byFilters.get(hash) ?? { filters, lists: [] };
      group.lists.push(list);
      byFilters.set(hash, group);
    }
    await Promise.all(
      [...byFilters.values()].map(async ({ filters, lists }) => {
        // Lists not shown are read in full when shown again (they are stale from the start).
        if (!lists.some((l) => l.active)) return;
        try {
          const counts = await reads.counts(filters);
          for (const list of lists)
            client.setQueryData<QueuePage>(list.key, (page) =>
              page === undefined ? page : { ...page, counts },
            );
        } catch {
          for (const list of lists) void client.invalidateQueries({ queryKey: list.key, exact: true });
        }
      }),
    );
  };

  return {
    onQueue(event) {
      const lists = listQueries(client);
      const showing = lists.filter((l) => shows(l.page, event.documentId));
      if (showing.length > 0) {
        // A change this tab already shows (its own write, read again) is not read again.
        const behind = showing.some(
          (l) => (l.page?.documents.find((d) => d.id === event.documentId)?.version ?? 0) < event.version,
        );
        if (behind) throttle.run(`row:${event.documentId}`, () => refreshRow(event.documentId));
      } else {
        for (const list of lists.filter((l) => l.active && putsNewFirst(l.query))) {
          throttle.run(`first:${hashKey(list.key)}`, () =>
            client.refetchQueries({ queryKey: list.key, exact: true, type: 'active' }),
          );
        }
      }
      throttle.run('counts', refreshCounts);
      // The other reads under the queue's key are small ("next" peeks, the job pages' documents, the
      // saved queues with their waiting counts): read again as they are, coalesced too.
      throttle.run('others', () =>
        Promise.all(
          [reviewKeys.nextPeeks(), reviewKeys.jobDocuments(), savedQueuesKey()].map((queryKey) =>
            client.invalidateQueries({ queryKey }),
          ),
        ),
      );
    },
    dispose: throttle.dispose,
  };
}

interface ListQuery {
  key: QueryKey;
  query: Partial<QueueQuery>;
  page: QueuePage | undefined;
  /** Shown now (an enabled observer). */
  active: boolean;
}

/** The cached queue lists (`reviewKeys.queue(query)`), not the other queries under `queues()`. */
function listQueries(client: QueryClient): ListQuery[] {
  return client
    .getQueryCache()
    .findAll({ queryKey: reviewKeys.queues() })
    .flatMap((query) => {
      const [, , params] = query.queryKey;
      if (query.queryKey.length !== 3 || typeof params !== 'object' || params === null) return [];
      return [
        {
          key: query.queryKey,
          query: params as Partial<QueueQuery>,
          page: query.state.data as QueuePage | undefined,
          active: query.isActive(),
        },
      ];
    });
}

const shows = (page: QueuePage | undefined, id: string) => page?.documents.some((d) => d.id === id) ?? false;

/** A first page in the default order: where a new document appears. */
const putsNewFirst = (query: Partial<QueueQuery>) =>
  query.cursor === undefined && (query.sort ?? '-received') === '-received';

/** What the counts depend on: every filter but `state` (the counts are per state). */
function filtersOf(query: Partial<QueueQuery>): Partial<QueueFilterQuery> {
  const { sort: _sort, cursor: _cursor, limit: _limit, state: _state, ...filters } = query;
  return filters;
}

/**
 * Whether the changed row still belongs to a list, by the filters a change can move it out of (its
 * state, who holds or decided it, whom it is assigned to). The others (model, file name, received,
 * uploader) never change.
 */
function fitsFilters(row: QueueDocument, query: Partial<QueueQuery>, me: string | undefined): boolean {
  if (query.state !== undefined && row.state !== query.state) return false;
  if (
    query.operator !== undefined &&
    row.holder?.id !== query.operator &&
    row.decidedBy?.id !== query.operator
  )
    return false;
  const assignee = row.assignedTo?.id;
  switch (query.assigned) {
    case undefined:
      return true;
    case 'anyone':
      return assignee !== undefined;
    case 'nobody':
      return assignee === undefined;
    case 'me':
      return me === undefined || assignee === me;
    default:
      return assignee === query.assigned;
  }
}

/**
 * Whether the row can stay where it is: not when the page is ordered by what changed (state,
 * priority), nor when the list filters on the total amount, which a correction may move and a row
 * does not show. Such a page is read again (it is the one page showing the document).
 */
function canTellPlace(query: Partial<QueueQuery>, shown: QueueDocument, row: QueueDocument): boolean {
  if (query.minAmount !== undefined || query.maxAmount !== undefined) return false;
  const sortKey = (query.sort ?? '-received').replace(/^-/, '');
  if (sortKey === 'state') return shown.state === row.state;
  if (sortKey === 'priority') return shown.priority === row.priority;
  return true;
}

/**
 * Runs a task at once, then at most once per `windowMs` for the same key: tasks asked for meanwhile
 * are run once, the latest, when the window closes (which opens the next).
 */
export function createThrottle(windowMs: number) {
  const windows = new Map<string, { timer: ReturnType<typeof setTimeout>; pending?: () => unknown }>();
  const run = (key: string, task: () => unknown): void => {
    const open = windows.get(key);
    if (open !== undefined) {
      open.pending = task;
      return;
    }
    const timer = setTimeout(() => {
      const pending = windows.get(key)?.pending;
      windows.delete(key);
      if (pending !== undefined) run(key, pending);
    }, windowMs);
    windows.set(key, { timer });
    void task();
  };
  const dispose = () => {
    for (const { timer } of windows.values()) clearTimeout(timer);
    windows.clear();
  };
  return { run, dispose };
}
