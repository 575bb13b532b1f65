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
import { z } from 'zod';
import { Id, Uuid } from './common-schemas';
import { DocumentState } from './review/schemas';

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
