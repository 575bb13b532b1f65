/**
 * Migration 0018-queue-counts (issue 22, "a queue that stays fast at 1,000,000 documents"): how many
 * documents each model has in each stored state, kept current by triggers in the transaction of every
 * change to `documents` (whichever code writes it: this release, an older copy during a rolling
 * upgrade, a command), so that the queue's counts never count the table.
 *
 * - SQLite (one writer at a time): row triggers add to and take from `queue_counts` directly.
 * - PostgreSQL (many writers): a counter row that every take, confirm and release updated would make
 *   them wait on each other and, in multi-row changes, deadlock. Statement triggers append each
 *   statement's net change to `queue_count_changes` instead (inserts never wait on each other), and
 *   readers add the changes to the counts; store/queue-counts.ts folds the changes into the counts
 *   now and then (one copy at a time, an advisory lock).
 *
 * Also an index to count postponed documents that came back (postponed_until passed), as
 * documents_lease does for expired leases: the counts move those to `to_review` as readers see them.
 *
 * Expand-only: new tables older code never reads; its writes keep the counts through the triggers.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from './migrations';

export function queueCounts(engine: Engine): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('queue_counts')
        .addColumn('model_key', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('n', engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('queue_counts_pk', ['model_key', 'state'])
        .execute();
      await db.schema
        .createTable('queue_count_changes')
        .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) => c.primaryKey())
        .addColumn('model_key', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('n', engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('documents_postponed')
        .on('documents')
        .columns(['state', 'postponed_until'])
        .execute();

      if (engine === 'postgres') {
        // No write may land between the count below and the triggers: both in this transaction,
        // writers held until it commits (they then go through the triggers).
        await sql`lock table documents in share row exclusive mode`.execute(db);
        await sql`
          create function queue_counts_inserted() returns trigger language plpgsql as $$
          begin
            insert into queue_count_changes (model_key, state, n)
              select model_key, state, count(*) from new_rows group by model_key, state;
            return null;
          end $$`.execute(db);
        await sql`
          create function queue_counts_deleted() returns trigger language plpgsql as $$
          begin
            insert into queue_count_changes (model_key, state, n)
              select model_key, state, -count(*) from old_rows group by model_key, state;
            return null;
          end $$`.execute(db);
        await sql`
          create function queue_counts_updated() returns trigger language plpgsql as $$
          begin
            insert into queue_count_changes (model_key, state, n)
              select model_key, state, sum(n) from (
                select o.model_key, o.state, -1 as n
                  from old_rows o join new_rows a on a.id = o.id
                  where o.state is distinct from a.state or o.model_key is distinct from a.model_key
                union all
                select a.model_key, a.state, 1 as n
                  from old_rows o join new_rows a on a.id = o.id
                  where o.state is distinct from a.state or o.model_key is distinct from a.model_key
              ) moved
              group by model_key, state
              having sum(n) <> 0;
            return null;
          end $$`.execute(db);
        await sql`
          create function queue_counts_truncated() returns trigger language plpgsql as $$
          begin
            delete from queue_count_changes;
            delete from queue_counts;
            return null;
          end $$`.execute(db);
        await sql`
          create trigger queue_counts_insert after insert on documents
            referencing new table as new_rows
            for each statement execute function queue_counts_inserted()`.execute(db);
        await sql`
          create trigger queue_counts_delete after delete on documents
            referencing old table as old_rows
            for each statement execute function queue_counts_deleted()`.execute(db);
        await sql`
          create trigger queue_counts_update after update on documents
            referencing old table as old_rows new table as new_rows
            for each statement execute function queue_counts_updated()`.execute(db);
        await sql`
          create trigger queue_counts_truncate after truncate on documents
            for each statement execute function queue_counts_truncated()`.execute(db);
      } else {
        await sql`
          create trigger queue_counts_insert after insert on documents begin
            insert into queue_counts (model_key, state, n) values (new.model_key, new.state, 1)
              on conflict (model_key, state) do update set n = n + 1;
          end`.execute(db);
        await sql`
          create trigger queue_counts_delete after delete on documents begin
            update queue_counts set n = n - 1 where model_key = old.model_key and state = old.state;
          end`.execute(db);
        await sql`
          create trigger queue_counts_update after update of state, model_key on documents
            when old.state is not new.state or old.model_key is not new.model_key begin
            update queue_counts set n = n - 1 where model_key = old.model_key and state = old.state;
            insert into queue_counts (model_key, state, n) values (new.model_key, new.state, 1)
              on conflict (model_key, state) do update set n = n + 1;
          end`.execute(db);
      }
      await sql`
        insert into queue_counts (model_key, state, n)
          select model_key, state, count(*) from documents group by model_key, state`.execute(db);
    },
  };
}
