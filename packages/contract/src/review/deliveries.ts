/**
 * The way back's deliveries (docs/gateway.md, "The way back"): what each confirmed document sends
 * afterwards, an integration's signed webhook, v1 feedback or v2 RAG upstream, kept until delivered
 * and retried, each attempt recorded. Shared by the server, which answers with these schemas
 * (server/app/review/http/delivery-routes.ts), and the browser, which parses them.
 *
 *   GET  /api/review/deliveries?state&kind&document&integration&cursor&limit → DeliveryPage (admins)
 *   GET  /api/review/deliveries/{id}                    → DeliveryDetailResponse (admins)
 *   POST /api/review/deliveries/{id}/retry              → DeliveryResponse (admins)
 *   GET  /api/review/documents/{id}/deliveries          → DeliveryList (signed in: the review's history)
 */
import { z } from 'zod';

export const DeliveryKind = z.enum(['webhook', 'v1_feedback', 'v2_rag']);
export type DeliveryKind = z.infer<typeof DeliveryKind>;

export const DeliveryState = z.enum(['pending', 'delivered', 'failed']);
export type DeliveryState = z.infer<typeof DeliveryState>;

export const DeliveryView = z.object({
  id: z.int().positive(),
  kind: DeliveryKind,
  state: DeliveryState,
  documentId: z.string(),
  /** The document's file name, to tell it apart in a list. */
  fileName: z.string().nullable(),
  /** The integration a webhook goes to (null for feedback and RAG, or once the integration is removed). */
  integration: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
  /** The confirmation it follows. */
  decidedAt: z.iso.datetime(),
  /** Attempts in the current round (a retry by an admin starts a new one); the history keeps them all. */
  attempts: z.int().min(0),
  /** When the next attempt is due; null once delivered or failed. */
  nextAttemptAt: z.iso.datetime().nullable(),
  /** The last attempt's HTTP status, if it got one. */
  lastStatus: z.int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
});
export type DeliveryView = z.infer<typeof DeliveryView>;

export const DeliveryAttempt = z.object({
  at: z.iso.datetime(),
  /** `delivered`, `status` (answered, not 2xx), `timeout`, `network`. */
  outcome: z.string(),
  status: z.int().nullable(),
  error: z.string().nullable(),
  durationMs: z.int().min(0),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const DeliveryDetail = DeliveryView.extend({
  /** Every attempt, oldest first. */
  attemptLog: z.array(DeliveryAttempt),
  /** What is sent, as built at confirmation (JSON). */
  payload: z.unknown(),
});
export type DeliveryDetail = z.infer<typeof DeliveryDetail>;

export const DeliveryCounts = z.object({ pending: z.int(), delivered: z.int(), failed: z.int() });
export type DeliveryCounts = z.infer<typeof DeliveryCounts>;

/** `GET /api/review/deliveries`: newest first. */
export const DeliveryPage = z.object({
  deliveries: z.array(DeliveryView),
  nextCursor: z.string().nullable(),
  counts: DeliveryCounts,
});
export type DeliveryPage = z.infer<typeof DeliveryPage>;

export const DeliveryDetailResponse = z.object({ delivery: DeliveryDetail });
export type DeliveryDetailResponse = z.infer<typeof DeliveryDetailResponse>;

export const DeliveryResponse = z.object({ delivery: DeliveryView });
export type DeliveryResponse = z.infer<typeof DeliveryResponse>;

/** `GET /api/review/documents/{id}/deliveries`: the document's, oldest first. */
export const DeliveryList = z.object({ deliveries: z.array(DeliveryView) });
export type DeliveryList = z.infer<typeof DeliveryList>;

const optionalText = z
  .string()
  .trim()
  .max(500)
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const DeliveryQuery = z.object({
  state: DeliveryState.optional(),
  kind: DeliveryKind.optional(),
  /** A document's id. */
  document: optionalText,
  /** An integration's id. */
  integration: optionalText,
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DeliveryQuery = z.infer<typeof DeliveryQuery>;
