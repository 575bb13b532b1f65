/**
 * Migration 0006-background-work (issue 20): one table of leased jobs for every kind of background
 * work of a copy (background/job-table.ts): the job follower's jobs and the way back's deliveries run
 * as two kinds of it, taken with one claim statement.
 *
 * Expand-only: a new table, which older code never reads. During a rolling upgrade older copies keep
 * following jobs and sending deliveries their own way (the leases in `documents` and `deliveries`);
 * newer copies take the same leases before they act (intake/follow-kind.ts, deliveries/delivery-kind.ts),
 * so no job is followed by two copies at once and no delivery is attempted twice at once. Rows older
 * code wrote (or that were pending before this migration) get their job from the newer copies' runner
 * (each kind's `adopt`), so nothing is carried over here.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from './migrations';

export function backgroundWork(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  const serialKey = engine === 'postgres' ? 'bigserial' : 'integer';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('background_jobs')
        .addColumn('id', serialKey, (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        // What to run (a handler registered by kind) and on what (a document's id, a delivery's id).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        // Which copies may run it; null: any copy with a handler for the kind.
        .addColumn('scope', 'text')
        .addColumn('payload_json', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('state', 'text', (c) =>
          c
            .notNull()
            .defaultTo('pending')
            .check(sql`state in ('pending', 'failed')`),
        )
        .addColumn('run_at', time, (c) => c.notNull())
        // Failed runs in a row (a handler that threw); back to 0 when one works.
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', time)
        .addColumn('last_error', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        // One job per thing to do: enqueueing it again reschedules it.
        .addUniqueConstraint('background_jobs_once', ['kind', 'key'])
        .execute();
      // The claim: due jobs of a kind, oldest due first.
      await db.schema
        .createIndex('background_jobs_due')
        .on('background_jobs')
        .columns(['kind', 'state', 'run_at', 'id'])
        .execute();
      // stop(): the jobs one copy holds.
      await db.schema
        .createIndex('background_jobs_owner')
        .on('background_jobs')
        .column('lease_owner')
        .execute();
    },
  };
}
