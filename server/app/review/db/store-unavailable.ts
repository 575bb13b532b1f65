/**
 * "The review store is away": the one place that tells a database error meaning the store cannot be
 * reached just now (PostgreSQL restarting, stopped, frozen or unreachable; SQLite's write lock held
 * past the busy time-out) from any other error, and the `503-001` it becomes.
 *
 * open-database.ts turns every such error into a `StoreUnavailableError` as it leaves the store (both
 * engines, guarded-dialect.ts), so every caller sees the same thing: the review API's routes, the
 * session check in front of the proxy and the event stream, the gateway (its v1 envelope included)
 * render it through their usual error renderers as `503-001` with `Retry-After`, and background loops
 * log one recognisable line. Nothing else needs to know pg's or SQLite's error codes.
 */
import { ProblemError } from '@extraction-review/contract/problem';

/** What `Retry-After` says: long enough for a fast restart, short enough not to leave people waiting. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL SQLSTATEs that mean "not now" rather than "not this": the connection classes and the
 * server going down or not up yet, and our own time-outs.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_ctl stop -m fast, a failover
  '57P02', // crash_shutdown: another backend crashed, the server restarts
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '57P05', // idle_session_timeout
  '57014', // query_canceled: statement_timeout (we never cancel a query otherwise)
  '55P03', // lock_not_available: a lock_timeout, when a deployment sets one
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout
]);
/** Class 08: connection exceptions (08000, 08001, 08003, 08004, 08006, 08P01). */
const CONNECTION_CLASS = '08';

/** Socket errors of a server that went away or cannot be reached. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** better-sqlite3's codes (SqliteError.code) for the write lock held by another connection. */
const UNAVAILABLE_SQLITE_CODE = /^SQLITE_(BUSY|LOCKED)(_|$)/;

/**
 * node-postgres and pg-pool say these in words only (no code): the connection ended under a query,
 * a connect or query time-out, a client already broken, a pool that could not hand out a connection.
 */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/i, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect/i, // pg-pool: DATABASE_CONNECT_TIMEOUT_MS passed
  /^Query read timeout/i, // pg: query_timeout passed (a frozen server)
  /is not queryable/i, // "Client has encountered a connection error and is not queryable"
  /^Cannot use a pool after calling end/i, // shutting down: the pool is gone
];

/** Whether `error` (or an error it was caused by) means the store is away, not that the request is wrong. */
export function isStoreUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    if (current instanceof StoreUnavailableError) return true;
    if (looksUnavailable(current)) return true;
    // Node's happy-eyeballs connect fails with an AggregateError of one error per address.
    if (current instanceof AggregateError && current.errors.some((inner) => isStoreUnavailable(inner)))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function looksUnavailable(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || (code.length === 5 && code.startsWith(CONNECTION_CLASS)))
      return true;
    if (UNAVAILABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLITE_CODE.test(code)) return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * `503-001`, with `Retry-After`, for a store that is away. A ProblemError, so that every renderer of
 * the app server shows it as it is (problem details; the v1 envelope on the gateway's /v1) and no
 * route has to catch it. The driver's own error is kept as `cause`, for logs; never in the body.
 */
export class StoreUnavailableError extends ProblemError {
  constructor(cause: unknown) {
    super(
      '503-001',
      'The review store cannot be reached just now (its database is restarting, unreachable or too ' +
        `slow to answer). Try again in ${STORE_RETRY_AFTER_SECONDS} seconds.`,
      { cause, headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) } },
    );
    this.name = 'StoreUnavailableError';
  }
}

/** `error` as a StoreUnavailableError when it means the store is away; otherwise `error` unchanged. */
export function asStoreUnavailable(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || !isStoreUnavailable(error)) return error;
  return new StoreUnavailableError(error);
}
