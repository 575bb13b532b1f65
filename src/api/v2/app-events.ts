/**
 * The browser's side of the app server's own config and events (the contract: app-event-schemas.ts):
 * fetching /api/app-config once per session, and one shared EventSource on /api/events per tab.
 */
import { queryOptions } from '@tanstack/react-query';
import { api, type ApiClient } from '../http';
import {
  AppConfig,
  APP_CONFIG_PATH,
  APP_EVENTS_PATH,
  parseAppEvent,
  type AppEventName,
  type JobEvent,
  type QueueEvent,
  type ResyncEvent,
} from '@extraction-review/contract/app-events';

export * from '@extraction-review/contract/app-events';

/** Built here rather than in keys.ts: the app server's own resources, apart from the upstream's. */
export const appConfigKey = ['app', 'config'] as const;

export async function getAppConfig({
  signal,
  client = api,
}: { signal?: AbortSignal | undefined; client?: ApiClient | undefined } = {}): Promise<AppConfig> {
  return client.request({ method: 'GET', path: APP_CONFIG_PATH, schema: AppConfig, signal });
}

/** Fixed for the life of the app server: fetched once per session. */
export function appConfigQueryOptions() {
  return queryOptions({
    queryKey: appConfigKey,
    queryFn: ({ signal }) => getAppConfig({ signal }),
    staleTime: Infinity,
  });
}

/** The part of the browser's EventSource used here (Node tests pass undici's). */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
  /** 2 (CLOSED) once it has given up reconnecting. */
  readonly readyState?: number;
}

/** EventSource.CLOSED. */
const CLOSED = 2;
/**
 * How long before a stream the browser gave up on is opened again: the `Retry-After` of a `503-001`
 * (the review store away, server/app/review/db/store-unavailable.ts).
 */
export const REOPEN_AFTER_MS = 5_000;
export type EventSourceConstructor = new (url: string) => EventSourceLike;

export interface AppEventHandlers {
  onJob?: (event: JobEvent) => void;
  onResync?: (event: ResyncEvent) => void;
  onQueue?: (event: QueueEvent) => void;
  /** The stream is open (again): `true`; it broke and the browser is reconnecting by itself: `false`. */
  onConnectionChange?: (connected: boolean) => void;
}

/**
 * Listens to `/api/events` until the returned function is called. The browser reconnects by itself
 * after a break (the server's `retry:` hint, 3 s) and sends `Last-Event-ID`, so what was sent in the
 * meantime is replayed, or a `resync` says it cannot be. Messages that do not match their schema are
 * ignored.
 *
 * Every subscriber of a tab shares one EventSource (the job events and the team queue alike): over
 * HTTP/1.1 a browser opens at most six connections per origin, and a stream holds one for as long as
 * it is open, so a stream per subscriber would soon leave three tabs nothing to load a file with.
 */
export function subscribeToAppEvents(
  handlers: AppEventHandlers,
  {
    client = api,
    EventSource: Source = globalThis.EventSource,
  }: { client?: ApiClient; EventSource?: EventSourceConstructor } = {},
): () => void {
  const url = client.resolve({ path: APP_EVENTS_PATH }).href;
  let shared = sharedStreams.get(Source)?.get(url);
  if (shared === undefined) {
    shared = openShared(() => new Source(url));
    const byUrl = sharedStreams.get(Source) ?? new Map<string, SharedStream>();
    byUrl.set(url, shared);
    sharedStreams.set(Source, byUrl);
  }
  const stream = shared;
  stream.subscribers.add(handlers);
  if (stream.connected) handlers.onConnectionChange?.(true);
  return () => {
    stream.subscribers.delete(handlers);
    if (stream.subscribers.size > 0) return;
    clearTimeout(stream.reopen);
    stream.source.close();
    setConnected(stream, false);
    sharedStreams.get(Source)?.delete(url);
  };
}

/**
 * Whether an event stream of this tab is open now: while it is, the queue lists need no poll (the
 * events say what changed, queue-live-updates.tsx); before it opens, when it breaks, and when it is
 * refused (no stream ever opens), they poll. The app-config's `events` is no sign of it: that flag
 * is about job events (a webhook), while the queue's are sent whenever someone is signed in. Read it
 * with `appEventsUp`, follow it with `subscribeToAppEventsStatus` (React: src/lib/use-app-events-up.ts).
 */
export function appEventsUp(): boolean {
  return openStreams > 0;
}

/** Calls `listener` whenever `appEventsUp()` changes, until the returned function is called. */
export function subscribeToAppEventsStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

let openStreams = 0;
const statusListeners = new Set<() => void>();

function setConnected(stream: SharedStream, connected: boolean): void {
  if (stream.connected === connected) return;
  stream.connected = connected;
  const wasUp = appEventsUp();
  openStreams += connected ? 1 : -1;
  if (appEventsUp() !== wasUp) for (const listener of [...statusListeners]) listener();
}

interface SharedStream {
  source: EventSourceLike;
  subscribers: Set<AppEventHandlers>;
  connected: boolean;
  reopen?: ReturnType<typeof setTimeout>;
}

const sharedStreams = new Map<EventSourceConstructor, Map<string, SharedStream>>();

/**
 * An EventSource reconnects by itself after a break, but gives up for good when an attempt is answered
 * with anything but a stream: a `503-001` while the review store is away (the session check cannot
 * run), a proxy's 502. Such a stream is opened again after REOPEN_AFTER_MS, for as long as someone
 * listens; a new EventSource cannot say where it stood, so its subscribers are told to resync.
 */
function openShared(open: () => EventSourceLike): SharedStream {
  const stream: SharedStream = { source: open(), subscribers: new Set(), connected: false };
  const each = (call: (handlers: AppEventHandlers) => void) => {
    for (const handlers of [...stream.subscribers]) call(handlers);
  };
  const attach = (source: EventSourceLike, reopened: boolean) => {
    const listen = (type: AppEventName) =>
      source.addEventListener(type, (message) => {
        const event = parseAppEvent(type, typeof message.data === 'string' ? message.data : '');
        if (event?.type === 'job') each((h) => h.onJob?.(event.data));
        else if (event?.type === 'resync') each((h) => h.onResync?.(event.data));
        else if (event?.type === 'queue') each((h) => h.onQueue?.(event.data));
      });
    listen('job');
    listen('resync');
    listen('queue');
    source.addEventListener('open', () => {
      setConnected(stream, true);
      each((h) => h.onConnectionChange?.(true));
      if (reopened) each((h) => h.onResync?.({ reason: 'unknown' }));
    });
    source.addEventListener('error', () => {
      setConnected(stream, false);
      each((h) => h.onConnectionChange?.(false));
      if (source.readyState !== CLOSED || stream.source !== source) return;
      clearTimeout(stream.reopen);
      stream.reopen = setTimeout(() => {
        if (stream.subscribers.size === 0) return;
        stream.source = open();
        attach(stream.source, true);
      }, REOPEN_AFTER_MS);
    });
  };
  attach(stream.source, false);
  return stream;
}
