/**
 * Migration 0013-assignments (issue 21, "assign documents to an operator"): an admin's assignment that
 * lasts, unlike the 10-minute lease a hand-over used to be.
 *
 * - `documents.assigned_to`: the operator it is assigned to (null: the team's). A removed operator's
 *   assignments go back to the team (ON DELETE SET NULL), as their holds do.
 * - `documents.assigned_at`: when it was assigned.
 * - `documents_assigned_next`: "next" for an assignee looks up their own waiting documents first, in
 *   the queue's order (priority, then the oldest result): this index serves that look-up. Partial, so
 *   the many unassigned documents cost it nothing.
 *
 * Expand-only: nullable columns and an index older code never reads.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from './migrations';

export function assignments(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('documents')
        .addColumn('assigned_to', 'text', (c) => c.references('operators.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('documents').addColumn('assigned_at', time).execute();
      await db.schema
        .createIndex('documents_assigned_next')
        .on('documents')
        .expression(sql`assigned_to, priority desc, ready_at, id`)
        .where(sql.ref('assigned_to'), 'is not', null)
        .execute();
    },
  };
}
