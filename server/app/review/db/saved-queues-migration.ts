/**
 * Migration 0008-saved-queues (issue 21, "The queue follows the operator"): a postponed document may
 * come back by itself at a time the operator chose (`documents.postponed_until`: from then on it counts
 * as `to_review`, with no sweeper, as an expired lease does). Expand-only: a nullable column older code
 * neither reads nor writes (it shows such a document as postponed until someone takes it).
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from './migrations';

export function savedQueues(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema.alterTable('documents').addColumn('postponed_until', time).execute();
    },
  };
}
