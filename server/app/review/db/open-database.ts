/**
 * Opens the review store on one of its two engines and brings its schema up to date:
 *
 * - embedded (default): SQLite through better-sqlite3, `<APP_DATA_DIR>/review.sqlite`, in WAL mode
 *   with a busy time-out, so the CLI and the server can use it at once. One app-server copy.
 * - `DATABASE_URL=postgres://…`: PostgreSQL through node-postgres, a pool of connections. Several
 *   app-server copies share it.
 *
 * docs/decisions/0005-review-store.md says why Kysely over these two drivers.
 *
 * When the database is away (docs/review-store.md): every statement has a time-out
 * (DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL's `statement_timeout`, pg's client-side `query_timeout` the
 * same for a server that does not answer at all, SQLite's busy time-out), new connections
 * have DATABASE_CONNECT_TIMEOUT_MS, and the errors that mean "away" leave as `503-001`
 * (guarded-dialect.ts). The pool replaces broken connections by itself, so the store works again
 * when the database returns, without a restart.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { SETTING_DEFAULTS } from '../../settings/config';
import { guardedDialect, throttledLine } from './guarded-dialect';
import { prepareSchema } from './migrate';
import { isStoreUnavailable } from './store-unavailable';
import type { Engine } from './migrations';
import type { ReviewDatabaseSchema } from './schema';
import type { Clock } from '@extraction-review/server-kit/clock';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review store');

export interface ReviewDatabase {
  db: Kysely<ReviewDatabaseSchema>;
  engine: Engine;
  /** PostgreSQL: the pool's connections now, for the metrics (none for SQLite's one connection). */
  pool?: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;
  close(): Promise<void>;
}

export interface DatabaseSettings {
  /** `postgres://…` or `postgresql://…`; unset → the embedded SQLite file under `dataDir`. */
  databaseUrl?: string | undefined;
  /** APP_DATA_DIR: holds `review.sqlite` (and the files, elsewhere). */
  dataDir: string;
  /** PostgreSQL pool size (DATABASE_POOL_SIZE). Default 10. */
  maxConnections?: number | undefined;
  /**
   * How long one statement may take (DATABASE_STATEMENT_TIMEOUT_MS, default 15 s): PostgreSQL's
   * `statement_timeout`, and SQLite's wait for the write lock (at most 5 s: see openSqlite).
   */
  statementTimeoutMs?: number | undefined;
  /** How long opening a PostgreSQL connection, or waiting for one of the pool's, may take. Default 5 s. */
  connectTimeoutMs?: number | undefined;
  /**
   * Apply pending migrations (default), or only check the schema works with this code and refuse to
   * open when it does not (MIGRATE_ON_START=false, `npm run migrate` then applies them): migrate.ts.
   */
  migrate?: boolean | undefined;
  /** Where the lines about migrations go (default the log; the admin commands send them to stderr). */
  report?: ((line: string) => void) | undefined;
  /** The one clock (server-kit/clock.ts): when migrations are recorded. Default the system's. */
  clock?: Clock | undefined;
}

/**
 * SQLite waits for another connection's write lock inside the call, holding the event loop: every
 * request of the copy waits with it. So its wait stops at 5 s (the store's wait before these settings)
 * even when statements may take longer.
 */
export const SQLITE_MAX_BUSY_MS = 5_000;

/** The timeouts in force for these settings (the defaults of server/app/settings/config.ts filled in). */
export function databaseTimeouts(
  settings: Pick<DatabaseSettings, 'statementTimeoutMs' | 'connectTimeoutMs'>,
): {
  statementMs: number;
  /**
   * pg's own `query_timeout`, the same: a server that cannot even cancel (frozen, unreachable) gives
   * no answer at all. Whichever fires first, the statement is over and the request answers 503-001.
   */
  queryMs: number;
  connectMs: number;
  sqliteBusyMs: number;
} {
  const statementMs = settings.statementTimeoutMs ?? SETTING_DEFAULTS.DATABASE_STATEMENT_TIMEOUT_MS;
  return {
    statementMs,
    queryMs: statementMs,
    connectMs: settings.connectTimeoutMs ?? SETTING_DEFAULTS.DATABASE_CONNECT_TIMEOUT_MS,
    sqliteBusyMs: Math.min(statementMs, SQLITE_MAX_BUSY_MS),
  };
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
  const opened = settings.databaseUrl !== undefined ? openPostgres(settings) : openSqlite(settings);
  try {
    await prepareSchema(opened, {
      migrate: settings.migrate,
      report: settings.report,
      clock: settings.clock,
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

function openSqlite(settings: DatabaseSettings): ReviewDatabase {
  const { dataDir } = settings;
  mkdirSync(dataDir, { recursive: true });
  const file = new Database(path.join(dataDir, 'review.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  // Another process (the operators command, a second server by mistake) may hold the write lock:
  // wait for it this long, then SQLITE_BUSY, which leaves the store as 503-001.
  file.pragma(`busy_timeout = ${databaseTimeouts(settings).sqliteBusyMs}`);
  const db = new Kysely<ReviewDatabaseSchema>({
    dialect: guardedDialect(new SqliteDialect({ database: file })),
  });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

function openPostgres(settings: DatabaseSettings): ReviewDatabase {
  const timeouts = databaseTimeouts(settings);
  const pool = new pg.Pool({
    connectionString: settings.databaseUrl,
    max: settings.maxConnections ?? SETTING_DEFAULTS.DATABASE_POOL_SIZE,
    // A server that does not answer (stopped with SIGSTOP, a firewall dropping packets) is an error
    // after this, not after the system's two-minute connect time-out. pg-pool also gives up waiting
    // for a free connection after it.
    connectionTimeoutMillis: timeouts.connectMs,
    // Sent at connection start: the server cancels a statement past it (57014).
    statement_timeout: timeouts.statementMs,
    // The client gives up as well, on a server that cannot even cancel (frozen, unreachable).
    query_timeout: timeouts.queryMs,
    // Notices a peer gone without a word (a machine lost) on idle connections.
    keepAlive: true,
    types: pgTypes,
  });
  // An idle client's error (the server restarted) must not crash the process; the pool replaces it.
  // A restart breaks every idle connection at once: one line says so.
  const idleFailed = throttledLine(10_000);
  pool.on('error', (error) =>
    idleFailed(`[review store] idle PostgreSQL connection failed: ${error.message}`),
  );
  const db = new Kysely<ReviewDatabaseSchema>({
    dialect: guardedDialect(new PostgresDialect({ pool: discardingBrokenClients(pool) })),
  });
  return { db, engine: 'postgres', pool, close: () => db.destroy() };
}

/**
 * The pool as Kysely sees it, with two changes:
 *
 * - A connection whose query failed because the server is away goes back to the pool as broken, and
 *   the pool closes it instead of lending it again. pg keeps a connection whose query timed out
 *   client-side (a frozen server) with that query still pending; lent again, every later query would
 *   queue behind it.
 * - While lent, a connection has a listener for its `error` event. pg-pool listens only while a
 *   connection is idle, and a server that ends the session between two statements of a transaction
 *   (a restart) makes pg emit `error` with no query to fail: unheard, that ends the process.
 */
function discardingBrokenClients(pool: pg.Pool): PostgresPool {
  type LentClient = PostgresPoolClient & { lent(): void };
  const wrapped = new WeakMap<pg.PoolClient, LentClient>();
  const wrap = (client: pg.PoolClient): LentClient => {
    let broken = false;
    const markIfAway = (error: unknown): never => {
      if (isStoreUnavailable(error)) broken = true;
      throw error;
    };
    const onError = (error: Error): void => {
      // The statement that comes next fails on its own ("not queryable"), as a 503-001.
      broken = true;
      logger.warn({ err: error }, 'a PostgreSQL connection in use failed');
    };
    const guarded: LentClient = {
      query: ((...args: Parameters<pg.PoolClient['query']>) => {
        // Nothing more on a broken connection (a transaction's rollback, say): it would wait behind
        // the query that timed out, for another time-out.
        if (broken) return Promise.reject(new Error('Connection terminated: broken by an earlier error'));
        const result = (client.query as (...a: unknown[]) => unknown)(...args);
        // A cursor (Kysely's streams) is returned as it is; a promise is watched.
        return result instanceof Promise ? result.catch(markIfAway) : result;
      }) as PostgresPoolClient['query'],
      release: (destroy?: boolean) => {
        client.off('error', onError);
        const discard = destroy === true || broken;
        broken = false;
        client.release(discard ? new Error('discarded: its server went away') : undefined);
      },
      lent: () => {
        client.on('error', onError);
      },
    };
    return guarded;
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      // The same wrapper each time the pool lends this client: Kysely keys its connections by it.
      let guarded = wrapped.get(client);
      if (guarded === undefined) {
        guarded = wrap(client);
        wrapped.set(client, guarded);
      }
      guarded.lent();
      return guarded;
    },
    end: () => pool.end(),
  };
}
