/**
 * A Kysely dialect around another (PostgreSQL's or SQLite's) whose errors leave the store already
 * sorted: one that means the store is away (store-unavailable.ts) comes out as a
 * `StoreUnavailableError` (`503-001`), any other unchanged. Every query, transaction and connection
 * of the review store passes here, whoever runs it (a route, the session check, the gateway, a
 * background loop), so no caller needs to know the drivers' errors.
 *
 * The inner driver always gets its own connection objects back (it keeps private state on them).
 */
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { asStoreUnavailable, StoreUnavailableError } from './store-unavailable';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review store');

export interface GuardOptions {
  /** Told of each error turned into `503-001` (default: a log line, at most one per 10 s). */
  onUnavailable?: (error: StoreUnavailableError) => void;
}

export function guardedDialect(inner: Dialect, options: GuardOptions = {}): Dialect {
  const onUnavailable = options.onUnavailable ?? throttledLog(10_000);
  const sort = (error: unknown): unknown => {
    const sorted = asStoreUnavailable(error);
    if (sorted instanceof StoreUnavailableError && sorted !== error) onUnavailable(sorted);
    return sorted;
  };
  return {
    createDriver: () => new GuardedDriver(inner.createDriver(), sort),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

type Sort = (error: unknown) => unknown;

async function sorted<T>(sort: Sort, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw sort(error);
  }
}

class GuardedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly sort: Sort,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return sorted(this.sort, () => this.inner.executeQuery<R>(compiledQuery));
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize);
    } catch (error) {
      throw this.sort(error);
    }
  }
}

class GuardedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, GuardedConnection>();
  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  constructor(
    private readonly inner: Driver,
    private readonly sort: Sort,
  ) {
    const { savepoint, rollbackToSavepoint, releaseSavepoint } = inner;
    const forward =
      (method: NonNullable<Driver['savepoint']>) =>
      (connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) =>
        sorted(sort, () => method.call(inner, unwrap(connection), name, compile));
    if (savepoint) this.savepoint = forward(savepoint);
    if (rollbackToSavepoint) this.rollbackToSavepoint = forward(rollbackToSavepoint);
    if (releaseSavepoint) this.releaseSavepoint = forward(releaseSavepoint);
  }

  init(): Promise<void> {
    return sorted(this.sort, () => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await sorted(this.sort, () => this.inner.acquireConnection());
    let guarded = this.wrapped.get(connection);
    if (guarded === undefined) {
      guarded = new GuardedConnection(connection, this.sort);
      this.wrapped.set(connection, guarded);
    }
    return guarded;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return sorted(this.sort, () => this.inner.beginTransaction(unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return sorted(this.sort, () => this.inner.commitTransaction(unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return sorted(this.sort, () => this.inner.rollbackTransaction(unwrap(connection)));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof GuardedConnection ? connection.inner : connection;
}

function throttledLog(everyMs: number): (error: StoreUnavailableError) => void {
  const line = throttledLine(everyMs);
  return (error) => line(`[review store] unavailable: ${describeCause(error.cause)}`);
}

/**
 * One line for the first of a run (an outage makes one per request, per connection), then at most
 * one per `everyMs`, saying how many were left out.
 */
export function throttledLine(
  everyMs: number,
  log: (line: string) => void = (line) => logger.warn(line),
): (line: string) => void {
  let lastAt = -Infinity;
  let quiet = 0;
  return (line) => {
    // A log's pace: on the system clock (server-kit/clock.ts), nothing is decided or stored by it.
    const now = Date.now();
    if (now - lastAt < everyMs) {
      quiet++;
      return;
    }
    const more = quiet > 0 ? ` (and ${quiet} more like it since the last line)` : '';
    lastAt = now;
    quiet = 0;
    log(`${line}${more}`);
  };
}

/** The driver's message and code, never a connection string (pg's messages hold none). */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' ? `${cause.message} (${code})` : cause.message;
}
