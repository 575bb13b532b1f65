/**
 * Queue changes, told to every app-server copy: each write of the queue store publishes one, and each
 * copy hands what it hears to its browsers (server/app/events/, `event: queue`).
 *
 * - Embedded (SQLite): one copy, so the bus is in-process.
 * - PostgreSQL: `NOTIFY review_queue` with the change as payload, and a dedicated connection per copy
 *   that `LISTEN`s (PostgreSQL delivers notifications after the transaction commits, to every
 *   listener, the sender included). A broken listening connection is opened again, and its
 *   listeners are told to resync: changes may have been missed meanwhile.
 */
import pg from 'pg';
import type { QueueEvent } from '../../../src/api/v2/app-events';

export const CHANNEL = 'review_queue';

export type QueueChange = QueueEvent;

export interface QueueBusListener {
  onChange(change: QueueChange): void;
  /** Changes may have been missed (the listening connection broke): refetch. */
  onGap?(): void;
}

export interface QueueBus {
  publish(change: QueueChange): void;
  subscribe(listener: QueueBusListener): () => void;
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
    close: async () => listeners.clear(),
  };
}

export async function postgresQueueBus(
  databaseUrl: string,
  /** Sends one notification (through the store's own pool). */
  notify: (channel: string, payload: string) => Promise<void>,
): Promise<QueueBus> {
  const listeners = new Set<QueueBusListener>();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
    next.on('notification', (message) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      let change: QueueChange;
      try {
        change = JSON.parse(message.payload) as QueueChange;
      } catch {
        return;
      }
      for (const listener of listeners) listener.onChange(change);
    });
    next.on('error', (error) => {
      console.error('[review events] the LISTEN connection failed:', error.message);
      reconnectSoon();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
  };

  const reconnectSoon = (): void => {
    const broken = client;
    client = undefined;
    void broken?.end().catch(() => undefined);
    if (closed || retry !== undefined) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          for (const listener of listeners) listener.onGap?.();
        },
        () => reconnectSoon(),
      );
    }, 1_000);
    retry.unref();
  };

  await connect();
  return {
    publish: (change) => {
      notify(CHANNEL, JSON.stringify(change)).catch((error: unknown) => {
        console.error('[review events] NOTIFY failed:', error instanceof Error ? error.message : error);
      });
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      listeners.clear();
      await client?.end().catch(() => undefined);
    },
  };
}
