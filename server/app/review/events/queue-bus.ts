/**
 * Queue changes, told to every app-server copy: each write of the queue store publishes one, and each
 * copy hands what it hears to its browsers (server/app/events/, `event: queue`).
 *
 * - Embedded (SQLite): one copy, so the bus is in-process.
 * - PostgreSQL: `NOTIFY review_queue` with the change as payload, and a dedicated connection per copy
 *   that `LISTEN`s (PostgreSQL delivers notifications after the transaction commits, to every
 *   listener, the sender included).
 *
 * The listening connection breaks when the database restarts or goes away. It is opened again with
 * backoff (half a second, doubling to 15 s, with jitter so that the copies do not all knock at once),
 * for as long as the bus is open, whatever the errors; nothing here can throw into the process. Once
 * it listens again, its listeners are told (`onGap`): changes made meanwhile were not heard, so they
 * refetch. A connection that looks open but no longer answers (a peer lost without a word) is found
 * by a ping every 30 s while idle.
 */
import pg from 'pg';
import type { QueueEvent } from '@extraction-review/contract/app-events';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review events');

export const CHANNEL = 'review_queue';

export type QueueChange = QueueEvent;

export interface QueueBusListener {
  onChange(change: QueueChange): void;
  /** Changes may have been missed (the listening connection broke and is back): refetch. */
  onGap?(): void;
}

export interface QueueBus {
  publish(change: QueueChange): void;
  subscribe(listener: QueueBusListener): () => void;
  /** Whether this copy hears the others' changes now (always, embedded). For the readiness check. */
  connected(): boolean;
  close(): Promise<void>;
}

export function localQueueBus(): QueueBus {
  const listeners = new Set<QueueBusListener>();
  return {
    publish: (change) => {
      for (const listener of listeners) listener.onChange(change);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connected: () => true,
    close: async () => listeners.clear(),
  };
}

export interface PostgresBusOptions {
  /** How long opening the listening connection may take (DATABASE_CONNECT_TIMEOUT_MS). Default 5 s. */
  connectTimeoutMs?: number | undefined;
  /** The first wait before opening it again; doubles up to `maxRetryMs`. Default 500 ms. */
  firstRetryMs?: number;
  /** Default 15 s. */
  maxRetryMs?: number;
  /** How often an idle listening connection is asked `select 1`. Default 30 s. */
  pingMs?: number;
}

export async function postgresQueueBus(
  databaseUrl: string,
  /** Sends one notification (through the store's own pool). */
  notify: (channel: string, payload: string) => Promise<void>,
  options: PostgresBusOptions = {},
): Promise<QueueBus> {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const firstRetryMs = options.firstRetryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 15_000;
  const pingMs = options.pingMs ?? 30_000;

  const listeners = new Set<QueueBusListener>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;
  let failures = 0;
  /** Set once a connection has listened: every later one follows a break, so changes may be missing. */
  let listenedBefore = false;

  const each = (call: (listener: QueueBusListener) => void): void => {
    for (const listener of [...listeners]) {
      // A listener's mistake must neither stop the others nor reach the connection's event handlers.
      try {
        call(listener);
      } catch (error) {
        logger.error({ err: error }, 'a queue listener failed');
      }
    }
  };

  const hear = (message: pg.Notification): void => {
    if (message.channel !== CHANNEL || message.payload === undefined) return;
    let change: QueueChange;
    try {
      change = JSON.parse(message.payload) as QueueChange;
    } catch {
      return;
    }
    each((listener) => listener.onChange(change));
  };

  /** One attempt: a new connection that listens, or an error (the connection closed again). */
  const open = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: databaseUrl,
      connectionTimeoutMillis: connectTimeoutMs,
      // The ping must not wait forever on a server that stopped answering.
      query_timeout: Math.max(connectTimeoutMs, 1_000),
      keepAlive: true,
    });
    let lost = false;
    const onLost = (reason: string): void => {
      if (lost) return;
      lost = true;
      if (client !== next) return; // Not (or no longer) the one in use: nothing to reopen.
      logger.warn(`the LISTEN connection broke (${reason}); opening it again`);
      client = undefined;
      stopPing();
      void next.end().catch(() => undefined);
      schedule();
    };
    // Registered before connecting: an error emitted with no listener would crash the process.
    next.on('error', (error) => onLost(error.message));
    next.on('end', () => onLost('closed by the server'));
    next.on('notification', hear);
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      lost = true;
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      lost = true;
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    failures = 0;
    startPing(next);
    if (listenedBefore) {
      logger.info('listening again; browsers are told to refetch');
      each((listener) => listener.onGap?.());
    }
    listenedBefore = true;
  };

  const schedule = (): void => {
    if (closed || retry !== undefined || client !== undefined) return;
    const base = Math.min(maxRetryMs, firstRetryMs * 2 ** Math.min(failures, 20));
    // Up to a quarter less, so copies restarted together spread their attempts.
    const wait = Math.round(base * (0.75 + Math.random() * 0.25));
    retry = setTimeout(() => {
      retry = undefined;
      open().catch((error: unknown) => {
        failures++;
        if (failures === 1 || failures % 10 === 0)
          logger.warn(`the LISTEN connection could not be opened (attempt ${failures}): ${message(error)}`);
        schedule();
      });
    }, wait);
    retry.unref();
  };

  const startPing = (listening: pg.Client): void => {
    stopPing();
    ping = setInterval(() => {
      if (client !== listening) return;
      listening.query('select 1').catch((error: unknown) => {
        // query_timeout or a dead socket: the connection is no use even if it has not said so.
        listening.emit('error', error instanceof Error ? error : new Error(message(error)));
      });
    }, pingMs);
    ping.unref();
  };
  const stopPing = (): void => {
    clearInterval(ping);
    ping = undefined;
  };

  try {
    await open();
  } catch (error) {
    // The store opened (or this would not be reached), so the database is likely back in a moment:
    // the copy starts, not ready to hear the others until this succeeds.
    failures = 1;
    logger.warn(`the LISTEN connection could not be opened: ${message(error)}; retrying`);
    // The first connection never listened: once one does, what was missed is unknown too.
    listenedBefore = true;
    schedule();
  }

  return {
    publish: (change) => {
      notify(CHANNEL, JSON.stringify(change)).catch((error: unknown) => {
        logger.error(`NOTIFY failed: ${message(error)}`);
      });
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    connected: () => client !== undefined,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      retry = undefined;
      stopPing();
      listeners.clear();
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
