/**
 * Opens the review store on one of its two engines and brings its schema up to date:
 *
 * - embedded (default): SQLite through better-sqlite3, `<APP_DATA_DIR>/review.sqlite`, in WAL mode
 *   with a busy time-out, so the CLI and the server can use it at once. One app-server copy.
 * - `DATABASE_URL=postgres://…`: PostgreSQL through node-postgres, a pool of connections. Several
 *   app-server copies share it.
 *
 * docs/decisions/0005-review-store.md says why Kysely over these two drivers.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrate';
import type { Engine } from './migrations';
import type { ReviewDatabaseSchema } from './schema';

export interface ReviewDatabase {
  db: Kysely<ReviewDatabaseSchema>;
  engine: Engine;
  close(): Promise<void>;
}

export interface DatabaseSettings {
  /** `postgres://…` or `postgresql://…`; unset → the embedded SQLite file under `dataDir`. */
  databaseUrl?: string | undefined;
  /** APP_DATA_DIR: holds `review.sqlite` (and the files, elsewhere). */
  dataDir: string;
  /** PostgreSQL pool size. Default 10. */
  maxConnections?: number;
}

// 64-bit integers (times in ms, serial keys) as numbers: every value we keep is far below 2^53.
const INT8_OID = 20;
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export async function openReviewDatabase(settings: DatabaseSettings): Promise<ReviewDatabase> {
  const opened = settings.databaseUrl !== undefined ? openPostgres(settings) : openSqlite(settings.dataDir);
  try {
    await migrateToLatest(opened);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

function openSqlite(dataDir: string): ReviewDatabase {
  mkdirSync(dataDir, { recursive: true });
  const file = new Database(path.join(dataDir, 'review.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  // Another process (the operators command, a second server by mistake) may hold the write lock.
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<ReviewDatabaseSchema>({ dialect: new SqliteDialect({ database: file }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

function openPostgres(settings: DatabaseSettings): ReviewDatabase {
  const pool = new pg.Pool({
    connectionString: settings.databaseUrl,
    max: settings.maxConnections ?? 10,
    // A server that does not answer (a firewall dropping packets) is an error after 10 s, not after the
    // system's two-minute connect time-out.
    connectionTimeoutMillis: 10_000,
    types: pgTypes,
  });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', (error) =>
    console.error('[review store] idle PostgreSQL connection failed:', error.message),
  );
  const db = new Kysely<ReviewDatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}
