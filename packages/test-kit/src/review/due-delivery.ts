/**
 * Tests of the way back's worker: a pending RAG delivery of a document, due now, written straight into
 * the outbox (as a confirmation's transaction writes it, without the confirmation around it).
 */
import type { ReviewDatabase } from '@extraction-review/app-server/review/db/open-database';

export async function addDueRagDelivery(
  database: ReviewDatabase,
  documentId: string,
  now: number,
): Promise<number> {
  const { id } = await database.db
    .insertInto('deliveries')
    .values({
      document_id: documentId,
      integration_id: null,
      kind: 'v2_rag',
      decided_at: now,
      state: 'pending',
      attempts: 0,
      next_attempt_at: now,
      lease_until: null,
      last_status: null,
      last_error: null,
      payload_json: JSON.stringify({ inference_id: 'inf-1', fields: {} }),
      created_at: now,
      updated_at: now,
      delivered_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}
