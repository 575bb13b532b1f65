/**
 * Migration 0019-name-search (issue 22): the queue's search in file names and aliases ("whatever the
 * case, anywhere in the name") through a trigram index instead of a walk of every document.
 *
 * - PostgreSQL: `pg_trgm`'s GIN indexes on `lower(file_name)` and `lower(alias)`, which serve the
 *   store's `lower(…) like '%…%'` as they are. Without GIN's pending list (`fastupdate = off`): each
 *   insert writes its trigrams at once (documents arrive one by one), where the list would make every
 *   search read up to 4 MB of entries not yet merged (measured: 83 ms of a search's 250 at 1,000,000). The extension is trusted (PostgreSQL 13 and later): the
 *   owner of the database may create it. Where it cannot be created (an older server, a role without
 *   the right), the migration goes on without it (savepoint) and search scans, as before; the log says so.
 * - SQLite: an FTS5 table with the trigram tokenizer over the same two columns, external content
 *   (it keeps no copy of the names), kept current by triggers. Its rows need an integer key of the
 *   document that never changes: not the implicit rowid, which `VACUUM` (and the `VACUUM INTO` backup
 *   of docs/operations.md) may renumber, but `documents.search_id`, given by the insert's trigger.
 *
 * Expand-only: older code never reads the index; its writes keep it through the triggers.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { componentLogger } from '@extraction-review/server-kit/logger';
import type { Engine } from './migrations';

const logger = componentLogger('review store');

export function nameSearch(engine: Engine): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      if (engine === 'postgres') {
        await sql`savepoint name_search`.execute(db);
        try {
          await sql`create extension if not exists pg_trgm`.execute(db);
        } catch (error) {
          await sql`rollback to savepoint name_search`.execute(db);
          logger.warn(
            { err: error },
            'pg_trgm could not be created: the queue search walks the names (docs/review-store.md, "Search through a trigram index", says how to add its indexes)',
          );
          return;
        }
        await sql`release savepoint name_search`.execute(db);
        await sql`create index documents_file_name_trgm on documents using gin (lower(file_name) gin_trgm_ops) with (fastupdate = off)`.execute(
          db,
        );
        await sql`create index documents_alias_trgm on documents using gin (lower(alias) gin_trgm_ops) with (fastupdate = off)`.execute(
          db,
        );
        return;
      }
      await db.schema.alterTable('documents').addColumn('search_id', 'integer').execute();
      await sql`update documents set search_id = rowid`.execute(db);
      await db.schema
        .createIndex('documents_search_id')
        .unique()
        .on('documents')
        .column('search_id')
        .execute();
      await sql`
        create virtual table documents_search using fts5(
          file_name, alias, content = 'documents', content_rowid = 'search_id', tokenize = 'trigram'
        )`.execute(db);
      await sql`
        create trigger documents_search_insert after insert on documents begin
          update documents set search_id = (select coalesce(max(search_id), 0) + 1 from documents)
            where rowid = new.rowid;
          insert into documents_search (rowid, file_name, alias)
            select search_id, file_name, alias from documents where rowid = new.rowid;
        end`.execute(db);
      await sql`
        create trigger documents_search_delete after delete on documents begin
          insert into documents_search (documents_search, rowid, file_name, alias)
            values ('delete', old.search_id, old.file_name, old.alias);
        end`.execute(db);
      await sql`
        create trigger documents_search_update after update of file_name, alias on documents begin
          insert into documents_search (documents_search, rowid, file_name, alias)
            values ('delete', old.search_id, old.file_name, old.alias);
          insert into documents_search (rowid, file_name, alias) values (new.search_id, new.file_name, new.alias);
        end`.execute(db);
      await sql`insert into documents_search (documents_search) values ('rebuild')`.execute(db);
    },
  };
}
