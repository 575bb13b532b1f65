/**
 * What the app server itself tells the browser, beyond the APIs it forwards (docs/app-server.md):
 *
 *   GET /api/app-config   AppConfig: which webhook of the upstream reaches this app server, and whether
 *                         job events are pushed at all
 *   GET /api/events       Server-Sent Events: `job` (JobEvent) when the upstream's webhook tells the app
 *                         server that a job is final; `resync` (ResyncEvent) when the server cannot say
 *                         what a reconnecting browser missed
 *
 * One contract: the app server builds every event with these schemas before sending it
 * (server/app/events/), and the browser parses what it receives with the same ones.
 *
 * Events are a hint to refetch early, never the source of truth: a job event says "this job is final,
 * fetch it now" (the job and its result still come from `/api/v2`). A browser that is not connected,
 * or whose app server did not receive the webhook (another copy behind a load balancer, a restart),
 * misses it and its polling carries on, so polling must stay on, only slower while events flow.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { Id, Uuid } from '../common-schemas';
import { DocumentState } from '../review/schemas';
import { api, type ApiClient } from '../http';

// ─── /api/app-config ─────────────────────────────────────────────────────────────────────────────────

const Score = z
  .number()
  .min(0, { error: 'A threshold is a score in 0..1' })
  .max(1, { error: 'A threshold is a score in 0..1' });

/**
 * How a v1 numeric confidence (0..1) becomes one of the four levels: the lowest score of each level;
 * below `medium` is Low. Equal thresholds are allowed (they leave a level out), decreasing ones are
 * not: a score cannot be Certain without being at least High. Set on the app server
 * (V1_CONFIDENCE_THRESHOLDS) and advertised here.
 */
export const ConfidenceThresholds = z
  .strictObject({ certain: Score, high: Score, medium: Score })
  .refine((t) => t.certain >= t.high && t.high >= t.medium, {
    error: 'Thresholds must satisfy certain ≥ high ≥ medium',
  });
export type ConfidenceThresholds = z.infer<typeof ConfidenceThresholds>;

export const AppConfig = z.object({
  v2: z.object({
    /**
     * Ids of the upstream webhook that points at this app server's `/hooks/v2` (WEBHOOK_V2_IDS, or the
     * one the embedded reference service gets on every model). Send those of them that the chosen model
     * has (`/v2/search/models` lists each model's `webhooks`) as `webhook_ids`: the upstream refuses an
     * id that is not the model's (422).
     */
    webhookIds: z.array(Uuid),
  }),
  /** True when the app server receives webhooks, so `/api/events` will carry job events. */
  events: z.boolean(),
  /** The operator's v1 confidence thresholds; null: the app's defaults. Absent from older servers. */
  v1: z
    .object({ confidenceThresholds: ConfidenceThresholds.nullable() })
    .default({ confidenceThresholds: null }),
});
export type AppConfig = z.infer<typeof AppConfig>;

/** Under the API base (`/api`), as http.ts takes paths. */
export const APP_CONFIG_PATH = '/app-config';
export const APP_EVENTS_PATH = '/events';

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

// ─── /api/events ─────────────────────────────────────────────────────────────────────────────────────

/** A job that reached a final state, as the upstream's webhook reported it (`event: job`). */
export const JobEvent = z.object({
  version: z.literal('v2'),
  /** The job's id: `inference.job.id` of a result, `inference_id` of a failure payload (see below). */
  jobId: Id,
  status: z.enum(['Processed', 'Failed']),
  /** The result's id, when the job was processed (`inference.id`). */
  inferenceId: Id.optional(),
  /** When the app server received the webhook: ISO 8601, UTC (`2026-03-14T09:27:01.120Z`). */
  receivedAt: z.iso.datetime(),
});
export type JobEvent = z.infer<typeof JobEvent>;

/**
 * The server cannot replay what this browser missed (`event: resync`): its `Last-Event-ID` is from
 * another run or another copy of the app server (`unknown`), or older than the events it still keeps
 * (`expired`), or the server itself may have missed queue changes (`missed`: its database connection
 * broke and is back). Refetch every job that is not final yet, and the review's data.
 */
export const ResyncEvent = z.object({ reason: z.enum(['unknown', 'expired', 'missed']) });
export type ResyncEvent = z.infer<typeof ResyncEvent>;

/**
 * A document of the team queue changed (`event: queue`): taken, corrected, released, decided,
 * reopened, its result in. Every app-server copy sends it (across copies through PostgreSQL's
 * LISTEN/NOTIFY), so open queues and reviews refetch at once.
 */
export const QueueEvent = z.object({
  documentId: z.string(),
  state: DocumentState,
  version: z.int().positive(),
  /** Who holds it now, when it is in review. */
  holderId: z.string().nullable(),
  at: z.iso.datetime(),
});
export type QueueEvent = z.infer<typeof QueueEvent>;

/** The SSE `event:` names the stream uses, each with its data schema. */
export const APP_EVENT_SCHEMAS = { job: JobEvent, resync: ResyncEvent, queue: QueueEvent } as const;
export type AppEventName = keyof typeof APP_EVENT_SCHEMAS;

export type AppEvent =
  | { type: 'job'; data: JobEvent }
  | { type: 'resync'; data: ResyncEvent }
  | { type: 'queue'; data: QueueEvent };

/** One received SSE message (`event:` name and `data:` text) as an AppEvent, or null if it is none. */
export function parseAppEvent(type: string, data: string): AppEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  if (type === 'job') {
    const parsed = JobEvent.safeParse(json);
    return parsed.success ? { type, data: parsed.data } : null;
  }
  if (type === 'resync') {
    const parsed = ResyncEvent.safeParse(json);
    return parsed.success ? { type, data: parsed.data } : null;
  }
  if (type === 'queue') {
    const parsed = QueueEvent.safeParse(json);
    return parsed.success ? { type, data: parsed.data } : null;
  }
  return null;
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
 * (the review store away, server/review/db/store-unavailable.ts).
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
    sharedStreams.get(Source)?.delete(url);
  };
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
      stream.connected = true;
      each((h) => h.onConnectionChange?.(true));
      if (reopened) each((h) => h.onResync?.({ reason: 'unknown' }));
    });
    source.addEventListener('error', () => {
      stream.connected = false;
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
