/**
 * The one way a document leaves the store (issue 22): an admin's delete (the review page, the queue's
 * bulk action, `DELETE /api/review/documents/{id}`) and the retention sweep all call `deleteDocument`.
 *
 * Its corrections, history and deliveries (pending or not) go with it (ON DELETE CASCADE); its page
 * words are kept by document id without a key, so they are removed here; its kept file is removed by
 * the caller once the transaction has committed (a row that stays must never name a removed file).
 * The audit log keeps a tombstone: which document, of which model, in which state, deleted by whom,
 * when and why (`by_hand` or `retention`), and nothing of what it held: no file name, no value.
 */
import type { ExpressionBuilder, Transaction } from 'kysely';
import type { KeptFilesSchema } from '../db/kept-files-schema';
import type { DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { recordEvent } from './audit-store';

/** Why a document was deleted: an admin's request, or its model's retention rule. */
export type DeletionCause = 'by_hand' | 'retention';

export interface Deletion {
  /** The admin who deletes it; null for the retention sweep. */
  by: string | null;
  cause: DeletionCause;
  now: number;
  /** Delete it even while another operator reviews it under a live lease. */
  force?: boolean | undefined;
  /** Only if it was confirmed or rejected at or before this time (the retention rule). */
  decidedBy?: number | undefined;
  /** Said in the tombstone: one of an admin's bulk deletion. */
  bulk?: boolean | undefined;
}

export type DeletionResult =
  | { deleted: DocumentRow; fileKey: string | null }
  | { refused: 'not_found' | 'held' | 'not_due'; current: DocumentRow | undefined };

/** Deletes the document in `trx` (one conditional statement), with its tombstone, or says why not. */
export async function deleteDocument(
  trx: Transaction<ReviewDatabaseSchema>,
  id: string,
  deletion: Deletion,
): Promise<DeletionResult> {
  const { by, now } = deletion;
  let query = trx.deleteFrom('documents').where('id', '=', id);
  if (deletion.force !== true) query = query.where((eb) => eb.not(heldByAnother(eb, by, now)));
  const decidedBy = deletion.decidedBy;
  if (decidedBy !== undefined)
    query = query.where('state', 'in', ['confirmed', 'rejected']).where('decided_at', '<=', decidedBy);
  const row = await query.returningAll().executeTakeFirst();
  if (row === undefined) {
    const current = await trx.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
    if (current === undefined) return { refused: 'not_found', current };
    return { refused: decidedBy !== undefined ? 'not_due' : 'held', current };
  }
  await (trx as unknown as Transaction<KeptFilesSchema>)
    .deleteFrom('page_words')
    .where('document_id', '=', id)
    .execute();
  // Its own timeline went with it: the audit log keeps that it was, and who deleted it, and why.
  await recordEvent(trx, {
    documentId: null,
    kind: 'deleted',
    actorId: by,
    at: now,
    data: {
      document: id,
      apiVersion: row.api_version,
      model: row.model_key,
      state: row.state,
      cause: deletion.cause,
      ...(deletion.bulk === true ? { bulk: true } : {}),
    },
  });
  return { deleted: row, fileKey: row.file_key };
}

/** In review under a lease that has not run out, held by someone other than `by`. */
function heldByAnother(
  eb: ExpressionBuilder<ReviewDatabaseSchema, 'documents'>,
  by: string | null,
  now: number,
) {
  const live = [eb('state', '=', 'in_review'), eb('lease_expires_at', '>', now)];
  return eb.and(by === null ? live : [...live, eb('holder_id', '<>', by)]);
}
