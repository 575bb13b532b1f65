/**
 * An admin's change to many documents of the queue at once (issue 21, "multi-select in the queue"):
 * assign them to an operator or back to the team, set their priority, reject them with one reason,
 * delete them. Each document is changed in its own transaction, with its history event, by one
 * conditional statement as the single writes of queue-store.ts are: a document that another operator
 * is reviewing (a live lease) is never touched, whatever the action. What was not changed is said per
 * document, with why, read from the row as it is when the statement touched nothing.
 *
 * Assigning is an assignment that lasts (`documents.assigned_to`, migration 0013), not a lease. A
 * lease was tried first (the document taken for the operator, "Alice, until 10:42"): it needed no
 * second notion of "whose", but it lapsed after ten minutes unused, so 40 invoices assigned to Alice
 * at 9:00 were back in everyone's queue at 9:10. Now the document stays waiting (or postponed), and is
 * Alice's: her "next" gives her assigned documents first, nobody else's "next" gives them, and the
 * queue's "Assigned" filter finds them. It is Alice's until it is decided (confirmed or rejected: the
 * decision's event keeps whose it was), unassigned by an admin, or Alice leaves the team (deactivated
 * or removed: her assignments go back to the team, each with its event). An admin still opens and
 * takes over any document directly, assigned or not. The one-document "Hand to" (`reassign`) also
 * hands over the lease, for a document someone may be reviewing right now.
 */
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { BulkAction, BulkResponse, BulkSkipReason } from '@extraction-review/contract/review/bulk';
import type { DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { effectiveState, leaseLive } from '../model/queue-state';
import { recordEvent } from './audit-store';
import { deleteDocument } from './document-deletion';

export type BulkChange =
  | { action: 'assign'; toOperatorId: string }
  | { action: 'unassign' }
  | { action: 'priority'; priority: number }
  | { action: 'reject'; reason: string }
  | { action: 'delete' };

export interface BulkOutcome extends BulkResponse {
  /** The kept files of the deleted documents: removed from the file storage once committed. */
  removedFileKeys: string[];
}

type Skip = { reason: BulkSkipReason; current: DocumentRow | undefined };
type One = { changed: DocumentRow; fileKey?: string | null } | Skip;

/**
 * An operator's name as it is now, for an assignment's event: the timeline says "assigned to Alice"
 * even after Alice is removed (null: no such operator).
 */
export async function operatorName(
  db: Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>,
  id: string | null,
): Promise<string | null> {
  if (id === null) return null;
  const row = await db.selectFrom('operators').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name ?? null;
}

/**
 * Sets (or clears) a document's assignment, in a transaction that has already written the row (its
 * conditions checked, its previous assignment read from that write's RETURNING). Never read first and
 * written after: on SQLite a transaction that reads, then writes, fails at once (SQLITE_BUSY_SNAPSHOT)
 * when another writer committed in between, whatever the busy timeout.
 */
export async function setAssignment(
  trx: Transaction<ReviewDatabaseSchema>,
  id: string,
  to: string | null,
  now: number,
): Promise<DocumentRow> {
  return trx
    .updateTable('documents')
    .set({ assigned_to: to, assigned_at: to === null ? null : now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The timeline's event of an assignment changed: "assigned" to an operator, or "unassigned" (back to
 * the team), with both operators' names as they are now (the words stay right after a removal) and
 * what else the caller says (`bulk`, `why`).
 */
export async function recordAssignment(
  trx: Transaction<ReviewDatabaseSchema>,
  change: {
    documentId: string;
    adminId: string | null;
    from: string | null;
    to: string | null;
    at: number;
    extra?: Record<string, unknown>;
  },
): Promise<void> {
  const { documentId, adminId, from, to, at, extra } = change;
  const fromName = await operatorName(trx, from);
  await recordEvent(trx, {
    documentId,
    kind: to === null ? 'unassigned' : 'assigned',
    actorId: adminId,
    at,
    data:
      to === null
        ? { from, fromName, ...extra }
        : { to, toName: await operatorName(trx, to), from, fromName, ...extra },
  });
}

const held = (row: DocumentRow, by: string | null, now: number): boolean =>
  leaseLive(row, now) && row.holder_id !== by;

/** Why a document was left as it was, in words an admin reads beside its name. */
function detail(action: BulkAction, skip: Skip, now: number): string {
  const row = skip.current;
  if (skip.reason === 'not_found' || row === undefined) return 'No such document (deleted meanwhile?).';
  if (skip.reason === 'held') return 'Another operator is reviewing it.';
  const state = effectiveState(row, now).replace('_', ' ');
  if (action === 'assign') return `It is ${state}: only a waiting or postponed document can be assigned.`;
  if (action === 'unassign') {
    return row.assigned_to === null
      ? 'It is not assigned to anyone.'
      : `It is ${state}: only a waiting or postponed document can be unassigned.`;
  }
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
  tell: (row: DocumentRow) => void,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { action: change.action, changed: [], skipped: [], removedFileKeys: [] };
  for (const id of ids) {
    const one = await db.transaction().execute((trx) => applyOne(trx, id, change, adminId, now));
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
      // Its state and lease are left as they are: a waiting document stays waiting, for `to`.
      const before = await trx
        .updateTable('documents')
        .set({ version: sql`version + 1`, updated_at: now })
        .where('id', '=', id)
        .where((eb) => freeOrHeldBy(eb, to, now))
        .returningAll()
        .executeTakeFirst();
      if (before === undefined) return refused(to);
      const row = await setAssignment(trx, id, to, now);
      await recordAssignment(trx, {
        documentId: id,
        adminId,
        from: before.assigned_to,
        to,
        at: now,
        extra: { bulk: true },
      });
      return { changed: row };
    }
    case 'unassign': {
      const before = await trx
        .updateTable('documents')
        .set({ version: sql`version + 1`, updated_at: now })
        .where('id', '=', id)
        .where('assigned_to', 'is not', null)
        .where((eb) => freeOrHeldBy(eb, adminId, now))
        .returningAll()
        .executeTakeFirst();
      if (before === undefined) return refused(adminId);
      const row = await setAssignment(trx, id, null, now);
      await recordAssignment(trx, {
        documentId: id,
        adminId,
        from: before.assigned_to,
        to: null,
        at: now,
        extra: { bulk: true },
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
      const rejected = await trx
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
      if (rejected === undefined) return refused(adminId);
      // A decision ends the assignment (queue-store.ts `decide`); its event says whose it was.
      const assignedTo = rejected.assigned_to;
      const row = assignedTo === null ? rejected : await setAssignment(trx, id, null, now);
      await recordEvent(trx, {
        documentId: id,
        kind: 'rejected',
        actorId: adminId,
        at: now,
        data: {
          reason: change.reason,
          bulk: true,
          ...(assignedTo === null ? {} : { assignedTo, assignedToName: await operatorName(trx, assignedTo) }),
        },
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
