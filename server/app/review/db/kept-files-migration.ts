/**
 * Migration 0004-kept-files (issue 19): documents' files in the review store (FILE_STORAGE=database,
 * files/database-file-storage.ts) and the page words' cache (words/page-words.ts), so that every
 * app-server copy of one PostgreSQL reads them, whatever machine it runs on. Expand-only: new tables,
 * which older code never reads.
 *
 * - `kept_files`: one row per file, `writing` (with its writer's heartbeat) until the whole file is in,
 *   then `complete` with its size and SHA-256; only a complete file opens.
 * - `kept_file_chunks`: the file's bytes in order, 256 KiB a row (`bytea` on PostgreSQL, `blob` on
 *   SQLite), removed with their file.
 * - `page_words`: a page's words as read once (JSON), per document and page.
 * - an index on `documents.file_key`: every sweep asks which files no document names.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from './migrations';

export function keptFiles(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  const bytes = engine === 'postgres' ? 'bytea' : 'blob';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('kept_files')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('writing', 'complete')`))
        .addColumn('bytes', time)
        .addColumn('sha256', 'text')
        .addColumn('chunk_bytes', 'integer', (c) => c.notNull())
        // Which process writes it (process-mark.ts), for the log and people; the heartbeat decides.
        .addColumn('writer', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('heartbeat_at', time, (c) => c.notNull())
        .addColumn('completed_at', time)
        .execute();
      // The sweep finds stale writes and old complete files by these.
      await db.schema
        .createIndex('kept_files_state')
        .on('kept_files')
        .columns(['state', 'heartbeat_at'])
        .execute();

      await db.schema
        .createTable('kept_file_chunks')
        .addColumn('file_key', 'text', (c) => c.notNull().references('kept_files.key').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('data', bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('kept_file_chunks_pkey', ['file_key', 'seq'])
        .execute();

      await db.schema
        .createTable('page_words')
        .addColumn('document_id', 'text', (c) => c.notNull())
        .addColumn('page', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('words_json', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('page_words_pkey', ['document_id', 'page'])
        .execute();

      await db.schema.createIndex('documents_file_key').on('documents').column('file_key').execute();
    },
  };
}
