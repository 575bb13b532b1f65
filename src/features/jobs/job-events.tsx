/**
 * Job events pushed by the app server (`/api/events`, fed by the upstream's webhook calls): one
 * subscription for the whole app. An event makes the job's query fetch at once, so the list and the job
 * page update without waiting for the next poll; polling carries on as the fallback (a missed event
 * costs at most one interval). The events are hints: what is shown always comes from `/api/v2/jobs`.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { jobKeys } from '../../api/keys';
import { appConfigQueryOptions, subscribeToAppEvents, type JobEvent } from '../../api/v2/app-events';
import { isJobSettled, jobQueryOptions } from '../../api/v2/queries';
import { isTerminalJobStatus, type JobResponse } from '@extraction-review/contract/v2/schemas';

/** `off`: the app server receives no webhook (or events are not supported here); polling only. */
export type LiveState = 'off' | 'connecting' | 'open' | 'reconnecting';

export interface JobEventsSnapshot {
  live: LiveState;
  /** Jobs whose final status arrived through an event rather than a poll. */
  updatedByEvent: ReadonlySet<string>;
}

export function createJobEventStore() {
  let snapshot: JobEventsSnapshot = { live: 'connecting', updatedByEvent: new Set() };
  const listeners = new Set<() => void>();
  const update = (next: Partial<JobEventsSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };
  return {
    getSnapshot: () => snapshot,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setLive: (live: LiveState) => {
      if (snapshot.live !== live) update({ live });
    },
    markUpdatedByEvent: (jobId: string) =>
      update({ updatedByEvent: new Set([...snapshot.updatedByEvent, jobId]) }),
  };
}
export type JobEventStore = ReturnType<typeof createJobEventStore>;

/**
 * Fetches the job now, whether or not a view shows it (the operator may be on the upload page). If
 * that fetch is what brought its final status (a poll had not got there first), the job is marked as
 * updated by the event: the list shows it (`data-updated-by`). Resolves `false` when the job is not in
 * this session's cache (not followed here, or its enqueue answer has not been read yet).
 */
export async function refreshJobOnEvent(
  queryClient: QueryClient,
  store: JobEventStore,
  event: JobEvent,
  optionsFor: typeof jobQueryOptions = jobQueryOptions,
): Promise<boolean> {
  const options = optionsFor(event.jobId);
  if (queryClient.getQueryState(options.queryKey) === undefined) return false;
  const before = queryClient.getQueryData(options.queryKey)?.job.status;
  // A poll in flight is dropped, so the data after this is this fetch's own.
  await queryClient.cancelQueries({ queryKey: options.queryKey, exact: true });
  try {
    await queryClient.fetchQuery({ ...options, staleTime: 0 });
  } catch {
    return true; // shown by the job's own query; polling carries on
  }
  const after = queryClient.getQueryData(options.queryKey)?.job.status;
  if (after !== undefined && after !== before && isTerminalJobStatus(after))
    store.markUpdatedByEvent(event.jobId);
  return true;
}

/** Events for jobs the cache does not hold yet, kept a minute in case their enqueue answer is late. */
const EARLY_EVENT_MS = 60_000;

const JobEventsContext = createContext<JobEventStore | null>(null);

/** Subscribes once for the app, when the app server says it pushes events. */
export function JobEventsProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [store] = useState(createJobEventStore);
  const config = useQuery(appConfigQueryOptions());
  const enabled = config.data?.events === true && typeof EventSource !== 'undefined';

  useEffect(() => {
    if (config.isError || (config.isSuccess && !enabled)) store.setLive('off');
    if (!enabled) return;
    store.setLive('connecting');
    // A job processed very fast may be pushed before the browser has read its enqueue answer: the
    // event waits until the job's query is created (seeded by the upload), then applies.
    const early = new Map<string, { event: JobEvent; at: number }>();
    const stopWatching = queryClient.getQueryCache().subscribe((change) => {
      if (change.type !== 'added') return;
      const [version, resource, jobId] = change.query.queryKey;
      const waiting = typeof jobId === 'string' ? early.get(jobId) : undefined;
      if (version !== jobKeys.all[0] || resource !== jobKeys.all[1] || !waiting) return;
      early.delete(waiting.event.jobId);
      // After the seeding data is set (the query is announced before it).
      setTimeout(() => void refreshJobOnEvent(queryClient, store, waiting.event), 0);
    });
    const stopListening = subscribeToAppEvents({
      onJob: (event) =>
        void refreshJobOnEvent(queryClient, store, event).then((known) => {
          if (known) return;
          const now = Date.now();
          for (const [id, entry] of early) if (now - entry.at > EARLY_EVENT_MS) early.delete(id);
          early.set(event.jobId, { event, at: now });
        }),
      onResync: () =>
        // The server cannot replay what was missed: fetch every job that may still change.
        void queryClient.refetchQueries({
          queryKey: jobKeys.all,
          predicate: (query) => {
            const data = query.state.data as JobResponse | undefined;
            return !data || !isJobSettled(data.job);
          },
        }),
      onConnectionChange: (connected) => store.setLive(connected ? 'open' : 'reconnecting'),
    });
    return () => {
      stopListening();
      stopWatching();
    };
  }, [enabled, config.isError, config.isSuccess, queryClient, store]);

  return <JobEventsContext value={store}>{children}</JobEventsContext>;
}

const OFF: JobEventsSnapshot = { live: 'off', updatedByEvent: new Set() };

export function useJobEvents(): JobEventsSnapshot {
  const store = useContext(JobEventsContext);
  return useSyncExternalStore(store?.subscribe ?? (() => () => {}), store?.getSnapshot ?? (() => OFF));
}
