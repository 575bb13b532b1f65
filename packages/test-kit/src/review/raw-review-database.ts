/**
 * For tests of the schema step (db/migrate.ts): the review store opened as db/open-database.ts opens
 * it, without that step, so a test can migrate it as an older or a newer code would.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { ReviewDatabase } from '@extraction-review/app-server/review/db/open-database';
import type { ReviewDatabaseSchema } from '@extraction-review/app-server/review/db/schema';

export function openWithoutSchema(settings: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): ReviewDatabase {
  if (settings.databaseUrl !== undefined && settings.databaseUrl !== '') {
    const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 2 });
    // A test drops its database (WITH (FORCE)) right after closing this: a connection still ending
    // then hears "terminating connection", which must not become an unhandled error.
    pool.on('error', () => undefined);
    const db = new Kysely<ReviewDatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(settings.dataDir, { recursive: true });
  const file = new Database(path.join(settings.dataDir, 'review.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<ReviewDatabaseSchema>({ dialect: new SqliteDialect({ database: file }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}
