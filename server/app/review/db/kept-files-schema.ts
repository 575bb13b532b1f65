/**
 * The tables of migration 0004-kept-files (db/kept-files-migration.ts) as Kysely sees them: the
 * database file storage and the page words use `database.db.withTables<KeptFilesSchema>()`.
 */
import type { Kysely } from 'kysely';
import type { ReviewDatabase } from './open-database';
import type { ReviewDatabaseSchema } from './schema';

export interface KeptFilesTable {
  key: string;
  state: 'writing' | 'complete';
  bytes: number | null;
  sha256: string | null;
  chunk_bytes: number;
  writer: string;
  created_at: number;
  /** The writer's last sign of life while `writing`: a write whose heartbeat is stale is abandoned. */
  heartbeat_at: number;
  completed_at: number | null;
}

export interface KeptFileChunksTable {
  file_key: string;
  /** 0, 1, 2… in the file's order. */
  seq: number;
  data: Buffer;
}

export interface PageWordsTable {
  document_id: string;
  /** 0-based. */
  page: number;
  /** The cache's shape (words/page-words.ts): another version is read again. */
  version: number;
  words_json: string;
  created_at: number;
}

// A type, not an interface: Kysely's withTables wants an index signature.
export type KeptFilesSchema = {
  kept_files: KeptFilesTable;
  kept_file_chunks: KeptFileChunksTable;
  page_words: PageWordsTable;
};

export function keptFilesDb(database: ReviewDatabase): Kysely<ReviewDatabaseSchema & KeptFilesSchema> {
  return database.db.withTables<KeptFilesSchema>();
}
