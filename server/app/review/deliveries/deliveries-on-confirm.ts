/**
 * The way back's outbox: the confirmation hook of the queue store (QueueStore's `onConfirmed`), run
 * inside the transaction that confirms a document, by an operator or automatically. It writes the
 * deliveries that confirmation calls for, with what each will send built now, so a confirmation and
 * its deliveries (each with its job of the background work) are committed together or not at all; the
 * delivery worker (delivery-worker.ts) sends them afterwards, whatever happens to this process meanwhile.
 *
 * - `webhook`: the document came through an integration (`documents.integration_id`) whose webhook URL
 *   is set and whose key is not revoked. The body: webhookBody (build-payloads.ts).
 * - `v1_feedback`: a v1 document whose product has feedback on (`model_settings.feedback_enabled`),
 *   and something v1 feedback can carry changed. The body: the PATCH of the changed fields.
 * - `v2_rag`: a v2 document, when the v2 upstream takes validated results for retrieval (`rag`: the
 *   embedded reference service does, the hosted API has no such endpoint; docs/gateway.md). The body:
 *   `{ inference_id, fields }`, the corrected fields, changed or not: a confirmed result is validated.
 *
 * One delivery per kind per confirmation (`unique(document_id, kind, decided_at)`): a document reopened
 * and confirmed again gets new ones, with what it says then.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DeliveryKind, DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { findConfirmedEventData } from '../store/audit-store';
import { findWebhookOfIntegration } from '../store/integration-store';
import { findFeedbackEnabled } from '../store/model-settings-store';
import { findOperatorName } from '../store/operator-store';
import { currentCorrectionsOf, type ConfirmationHook } from '../store/queue-store';
import { buildPayloads, webhookBody, type ReviewOutcome } from './build-payloads';
import { addDeliveries, scheduleDelivery } from './delivery-store';

type Trx = Transaction<ReviewDatabaseSchema>;

export interface DeliveryOptions {
  /** Whether the v2 upstream takes validated results for RAG (`POST /v2/extensions/rag/…`). */
  rag: boolean;
}

export function deliveriesOnConfirm(options: DeliveryOptions): ConfirmationHook {
  return async (trx, document, now) => {
    if (document.result_json === null) return;
    const decidedAt = document.decided_at ?? now;
    const payloads = buildPayloads({
      apiVersion: document.api_version,
      modelKey: document.model_key,
      upstreamJobId: document.upstream_job_id,
      upstreamResultId: document.upstream_result_id,
      resultJson: document.result_json,
      corrections: await corrections(trx, document.id),
    });

    const deliveries: { kind: DeliveryKind; payload: unknown }[] = [];
    const integration = await webhookIntegration(trx, document);
    if (integration !== undefined) {
      const outcome = await reviewOutcome(trx, document, integration, decidedAt);
      deliveries.push({ kind: 'webhook', payload: webhookBody(document.api_version, outcome, payloads) });
    }
    if (payloads.v1Feedback !== undefined && (await feedbackEnabled(trx, document)))
      deliveries.push({ kind: 'v1_feedback', payload: payloads.v1Feedback });
    if (payloads.v2Rag !== undefined && options.rag)
      deliveries.push({ kind: 'v2_rag', payload: payloads.v2Rag });
    if (deliveries.length === 0) return;

    const written = await addDeliveries(
      trx,
      { documentId: document.id, integrationId: document.integration_id, decidedAt },
      deliveries,
      now,
    );
    // Each delivery's job of the background work, committed with it (the worker sends it).
    for (const { id } of written) await scheduleDelivery(trx, id, now, now);
  };
}

/** The latest value of each corrected path, as the review reads them (`document.corrections`). */
async function corrections(trx: Trx, documentId: string): Promise<Record<string, unknown>> {
  const latest = await currentCorrectionsOf(trx, documentId);
  return Object.fromEntries([...latest].map(([path, json]) => [path, JSON.parse(json) as unknown]));
}

async function webhookIntegration(
  trx: Trx,
  document: DocumentRow,
): Promise<{ id: string; name: string } | undefined> {
  if (document.integration_id === null) return undefined;
  const row = await findWebhookOfIntegration(trx, document.integration_id);
  if (row === undefined || row.webhook_url === null || row.webhook_url === '' || row.revoked_at !== null)
    return undefined;
  return { id: row.id, name: row.name };
}

async function feedbackEnabled(trx: Trx, document: DocumentRow): Promise<boolean> {
  if (document.api_version !== 'v1') return false;
  const row = await findFeedbackEnabled(trx, document.model_key);
  return Number(row?.feedback_enabled ?? 0) === 1;
}

/**
 * Who confirmed and how. An operator's confirmation names them (`decided_by`); a confirmation with no
 * operator (`auto_confirmed` at intake, by the model's routing), or whose `confirmed` event says
 * `automatic: true`, is automatic. The reason for confirming despite failing business rules is the
 * `confirmed` event's `override` (review-routes.ts), or the document's `reason`.
 */
export async function reviewOutcome(
  trx: Trx | Kysely<ReviewDatabaseSchema>,
  document: DocumentRow,
  integration: { id: string; name: string },
  decidedAt: number,
): Promise<ReviewOutcome> {
  const operator =
    document.decided_by === null ? undefined : await findOperatorName(trx, document.decided_by);
  const event = await findConfirmedEventData(trx, document.id, decidedAt);
  const data = parseData(event?.data_json ?? null);
  const overrideReason = document.reason ?? (typeof data.override === 'string' ? data.override : null);
  return {
    documentId: document.id,
    integration,
    confirmedBy: operator?.name ?? null,
    automatic: document.decided_by === null || data.automatic === true,
    confirmedAt: decidedAt,
    overrideReason,
  };
}

function parseData(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
