/**
 * v1 webhooks (spec §4.3, §6; API-FACTS v1): when a `predict_async` job ends, every webhook endpoint
 * of its product (`v1_products[].webhooks` in the models file; v1 has no `webhook_ids`) receives
 * `{ document, job }` once completed, `{ job }` with `job.error` once failed.
 *
 * Delivered by the v2 WebhookDispatcher (same store, retries, time-outs, resumption after a restart):
 * a v1 product owns its endpoints under the key `v1:<account>/<name>/<version>` where a v2 model owns
 * them under its id, and they are signed in the two v1 headers instead of `X-Signature`.
 */
import type { WebhookDispatcher } from '../webhooks/dispatcher';
import { v1ProductKey } from '../models/model-catalog';
import { jobJson } from './v1-envelope';
import type { V1JobRecord } from './v1-store';

/**
 * The spec's header and the hosted service's (API-FACTS v1): both carry the same lowercase hex
 * HMAC-SHA256 of the raw body, so a receiver written for either verifies it.
 */
export const V1_SIGNATURE_HEADERS = ['X-Service-Hmac-Signature', 'X-Mindee-Hmac-Signature'] as const;

const OWNER_PREFIX = 'v1:';

/** The key under which a v1 product's endpoints and deliveries are kept. */
export const v1WebhookOwner = (product: { account: string; name: string; version: string }): string =>
  `${OWNER_PREFIX}${v1ProductKey(product)}`;

/** The product key of an owner written by `v1WebhookOwner`, undefined for a v2 model id. */
export const v1ProductKeyOf = (owner: string): string | undefined =>
  owner.startsWith(OWNER_PREFIX) ? owner.slice(OWNER_PREFIX.length) : undefined;

/** The exact bytes sent: compact JSON, as the v2 payloads (webhooks/payload.ts). */
export function v1WebhookPayload(job: V1JobRecord): string {
  return JSON.stringify(
    job.status === 'completed' ? { document: job.document, job: jobJson(job) } : { job: jobJson(job) },
  );
}

/** What the job service calls once a job with `announce` is final. */
export function announceV1Job(
  dispatcher: Pick<WebhookDispatcher, 'announce'>,
  endpointsOf: (job: V1JobRecord) => readonly { id: string }[],
  job: V1JobRecord,
): void {
  const ids = endpointsOf(job).map((hook) => hook.id);
  if (ids.length === 0) return;
  dispatcher.announce({ id: job.id, modelId: v1WebhookOwner(job) }, ids, v1WebhookPayload(job));
}
