/**
 * An admin's change to many documents of the queue at once (issue 21, "multi-select in the queue"):
 * hand them to an operator, set their priority, reject them with one reason, delete them. Each
 * document is changed in its own transaction, with its history event, by one conditional statement as
 * the single writes of queue-store.ts are: a document that another operator is reviewing (a live
 * lease) is never touched, whatever the action. What was not changed is said per document, with why,
 * read from the row as it is when the statement touched nothing.
 *
 * Handing over ("assign") is the queue's own lease, as `reassign` does for one document: the document
 * is taken for the operator named, under a fresh lease. It then shows in the queue as theirs ("Alice,
 * until 10:42"), opens for them without a take, and nobody's "next" can give it to someone else. We
 * chose this over a separate `assigned_to` column honoured by "next": no second notion of "whose"
 * beside the holder (which every reader, the review and the live events already know), no migration,
 * and an assignment to an operator who never comes back does not pin the document: when the lease
 * runs out unused it is waiting again, for the whole team, with nothing to sweep (an assignment
 * column would keep it from everyone else until an admin noticed).
 */
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { BulkAction, BulkResponse, BulkSkipReason } from '@extraction-review/contract/review/bulk';
import type { DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { effectiveState, leaseLive } from '../model/queue-state';
import { recordEvent } from './audit-store';
import { deleteDocument } from './document-deletion';

export type BulkChange =
  | { action: 'assign'; toOperatorId: string }
  | { action: 'priority'; priority: number }
  | { action: 'reject'; reason: string }
  | { action: 'delete' };

export interface BulkOutcome extends BulkResponse {
  /** The kept files of the deleted documents: removed from the file storage once committed. */
  removedFileKeys: string[];
}

type Skip = { reason: BulkSkipReason; current: DocumentRow | undefined };
type One = { changed: DocumentRow; fileKey?: string | null } | Skip;

const held = (row: DocumentRow, by: string | null, now: number): boolean =>
  leaseLive(row, now) && row.holder_id !== by;

/** Why a document was left as it was, in words an admin reads beside its name. */
function detail(action: BulkAction, skip: Skip, now: number): string {
  const row = skip.current;
  if (skip.reason === 'not_found' || row === undefined) return 'No such document (deleted meanwhile?).';
  if (skip.reason === 'held') return 'Another operator is reviewing it.';
  const state = effectiveState(row, now).replace('_', ' ');
  if (action === 'assign') return `It is ${state}: only a waiting or postponed document can be handed over.`;
  if (action === 'reject') return `It is ${state}: only a waiting or postponed document can be rejected.`;
  return `It is ${state}.`;
}

/**
 * Applies the change to each document, one transaction each, in the order given; `tell` is called
 * with each changed row once its transaction has committed (the queue's live events).
 */
export async function applyBulk(
  db: Kysely<ReviewDatabaseSchema>,
  ids: readonly string[],
  change: BulkChange,
  adminId: string,
  now: number,
  leaseMs: number,
  tell: (row: DocumentRow) => void,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { action: change.action, changed: [], skipped: [], removedFileKeys: [] };
  for (const id of ids) {
    const one = await db.transaction().execute((trx) => applyOne(trx, id, change, adminId, now, leaseMs));
    if ('changed' in one) {
      outcome.changed.push(id);
      if (one.fileKey != null) outcome.removedFileKeys.push(one.fileKey);
      tell(one.changed);
    } else {
      outcome.skipped.push({ id, reason: one.reason, detail: detail(change.action, one, now) });
    }
  }
  return outcome;
}

async function applyOne(
  trx: Transaction<ReviewDatabaseSchema>,
  id: string,
  change: BulkChange,
  adminId: string,
  now: number,
  leaseMs: number,
): Promise<One> {
  const find = () => trx.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();
  /** Nothing was touched: why, from the row as it is now. */
  const refused = async (by: string | null): Promise<Skip> => {
    const current = await find();
    if (current === undefined) return { reason: 'not_found', current };
    return { reason: held(current, by, now) ? 'held' : 'wrong_state', current };
  };

  switch (change.action) {
    case 'assign': {
      const to = change.toOperatorId;
      const row = await trx
        .updateTable('documents')
        .set({
          previous_holder_id: sql`case when state = 'in_review' then holder_id else null end`,
          state: 'in_review',
          postponed_until: null,
          holder_id: to,
          lease_expires_at: now + leaseMs,
          version: sql`version + 1`,
          updated_at: now,
        })
        .where('id', '=', id)
        .where((eb) => freeOrHeldBy(eb, to, now))
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return refused(to);
      await recordEvent(trx, {
        documentId: id,
        kind: 'reassigned',
        actorId: adminId,
        at: now,
        data: { from: row.previous_holder_id, to, bulk: true },
      });
      return { changed: row };
    }
    case 'priority': {
      const before = await find();
      if (before === undefined) return { reason: 'not_found', current: before };
      // A version moved under a reviewer would refuse their next save: a held document is left alone.
      if (held(before, adminId, now)) return { reason: 'held', current: before };
      const row = await trx
        .updateTable('documents')
        .set({ priority: change.priority, version: sql`version + 1`, updated_at: now })
        .where('id', '=', id)
        .where('version', '=', before.version)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return refused(adminId);
      await recordEvent(trx, {
        documentId: id,
        kind: 'prioritised',
        actorId: adminId,
        at: now,
        data: { from: before.priority, to: change.priority, bulk: true },
      });
      return { changed: row };
    }
    case 'reject': {
      const row = await trx
        .updateTable('documents')
        .set({
          state: 'rejected',
          postponed_until: null,
          holder_id: null,
          lease_expires_at: null,
          decided_by: adminId,
          decided_at: now,
          reason: change.reason,
          version: sql`version + 1`,
          updated_at: now,
        })
        .where('id', '=', id)
        .where((eb) => freeOrHeldBy(eb, adminId, now))
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return refused(adminId);
      await recordEvent(trx, {
        documentId: id,
        kind: 'rejected',
        actorId: adminId,
        at: now,
        data: { reason: change.reason, bulk: true },
      });
      return { changed: row };
    }
    case 'delete': {
      // The one deletion path (document-deletion.ts): the admin's, as by hand, with its tombstone.
      const result = await deleteDocument(trx, id, { by: adminId, cause: 'by_hand', now, bulk: true });
      if ('refused' in result) return refused(adminId);
      const row = result.deleted;
      // Told as a change of version, so that open lists and reviews refetch (and find it gone).
      return { changed: { ...row, version: row.version + 1, updated_at: now }, fileKey: result.fileKey };
    }
  }
}

/** Waiting, postponed, or in review under a lease that ran out or is `operatorId`'s: free to change hands. */
function freeOrHeldBy(
  eb: ExpressionBuilder<ReviewDatabaseSchema, 'documents'>,
  operatorId: string,
  now: number,
) {
  return eb.or([
    eb('state', 'in', ['to_review', 'postponed']),
    eb.and([
      eb('state', '=', 'in_review'),
      eb.or([eb('lease_expires_at', '<=', now), eb('holder_id', '=', operatorId)]),
    ]),
  ]);
}
