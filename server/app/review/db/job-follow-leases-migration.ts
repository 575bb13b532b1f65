/**
 * Migration 0005-job-follow-leases (issue 19): each document records which upstream took it, and the
 * job follower's schedule and lease live in its row (intake/job-follower.ts), so app-server copies
 * sharing one PostgreSQL follow each job from one copy at a time and a copy that dies hands its jobs
 * over when its lease runs out. Expand-only: nullable columns, which older code neither reads nor
 * writes (it keeps following jobs its own way).
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from './migrations';

export function jobFollowLeases(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('documents')
        // The upstream's identity (intake/upstream-identity.ts); null for documents kept before.
        .addColumn('upstream_id', 'text')
        .execute();
      // The copy following the job now (a random id per follower), until follow_until.
      await db.schema.alterTable('documents').addColumn('follow_holder', 'text').execute();
      await db.schema.alterTable('documents').addColumn('follow_until', time).execute();
      // When the job is next looked at, and the current back-off; null: first look 1.5 s after receipt.
      await db.schema.alterTable('documents').addColumn('next_check_at', time).execute();
      await db.schema.alterTable('documents').addColumn('check_interval_ms', 'integer').execute();
    },
  };
}
