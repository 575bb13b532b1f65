/**
 * Job events for the browsers connected to `/api/events` (Server-Sent Events), and the one piece of
 * state the app server keeps: a small ring buffer of recent events, so that a browser reconnecting
 * with `Last-Event-ID` gets what it missed.
 *
 * Event ids are `<run>-<n>`: `run` is random per hub (per process start), `n` counts from 1. A
 * `Last-Event-ID` of another run (a restart, or another copy of the app server behind a load
 * balancer) or older than the buffer cannot be replayed; the browser is told so with a `resync`
 * event, and refetches what it follows. Every stream opens with the current id, so that even a
 * browser that has received nothing yet can say where it stood when it reconnects.
 *
 * The events are typed with the browser's own schemas (src/api/v2/app-events.ts), and the tests parse
 * what the stream sends with them. Types only at run time: the app server loads no zod on its proxy
 * path (see webhook-receiver.ts).
 */
import { randomBytes } from 'node:crypto';
import { dateOf, systemClock, type Clock } from '@extraction-review/server-kit/clock';
import type { AppEventName, JobEvent, QueueEvent, ResyncEvent } from '@extraction-review/contract/app-events';

export interface AppEventHubOptions {
  /** Events kept for replay. Default 256. */
  bufferSize?: number;
  /** A comment line this often keeps proxies and browsers from closing an idle stream. Default 15 s. */
  heartbeatMs?: number;
  /** The `retry:` hint: how long a browser waits before reconnecting. Default 3 s. */
  retryMs?: number;
  /** A subscriber this many messages behind (a stalled connection) is cut off. Default 1000. */
  maxQueuedMessages?: number;
  /** The one clock (server-kit/clock.ts): a job event's `receivedAt` when none is given. Default the system's. */
  clock?: Clock;
}

export const DEFAULT_HEARTBEAT_MS = 15_000;
export const DEFAULT_RETRY_MS = 3_000;
const DEFAULT_BUFFER_SIZE = 256;
const DEFAULT_MAX_QUEUED = 1_000;

interface StoredEvent {
  seq: number;
  name: AppEventName;
  /** The whole SSE message, `id:` to the blank line. */
  text: string;
  /** `jobId/status`, to recognise a repeated delivery. */
  dedupeKey: string;
}

interface Subscriber {
  controller: ReadableStreamDefaultController<Uint8Array>;
  closed: boolean;
}

const encoder = new TextEncoder();

export class AppEventHub {
  readonly run = randomBytes(6).toString('hex');
  private seq = 0;
  private readonly buffer: StoredEvent[] = [];
  private readonly subscribers = new Set<Subscriber>();
  private readonly bufferSize: number;
  private readonly retryMs: number;
  private readonly maxQueued: number;
  private readonly clock: Clock;
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(options: AppEventHubOptions = {}) {
    this.bufferSize = options.bufferSize ?? DEFAULT_BUFFER_SIZE;
    this.retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
    this.maxQueued = options.maxQueuedMessages ?? DEFAULT_MAX_QUEUED;
    this.clock = options.clock ?? systemClock;
    // One timer for every stream; it never keeps the process alive.
    this.heartbeat = setInterval(
      () => this.broadcast(': heartbeat\n\n'),
      options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    );
    this.heartbeat.unref();
  }

  /** Browsers connected now. */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** The id of the newest event (`<run>-0` before the first). */
  get currentId(): string {
    return `${this.run}-${this.seq}`;
  }

  /**
   * Sends a job event to every connected browser and keeps it for replay. A repeat of an event still
   * in the buffer (the same job and status: a webhook delivery retried after a time-out) is not sent
   * again. Returns the event's id, and whether it was such a repeat.
   */
  publishJob(input: Omit<JobEvent, 'receivedAt'> & { receivedAt?: string }): {
    id: string;
    duplicate: boolean;
  } {
    const data: JobEvent = {
      version: input.version,
      jobId: input.jobId,
      status: input.status,
      ...(input.inferenceId !== undefined ? { inferenceId: input.inferenceId } : {}),
      receivedAt: input.receivedAt ?? dateOf(this.clock).toISOString(),
    };
    const dedupeKey = `${data.jobId.toLowerCase()}/${data.status}`;
    const earlier = this.buffer.find((event) => event.dedupeKey === dedupeKey);
    if (earlier) return { id: `${this.run}-${earlier.seq}`, duplicate: true };

    const seq = ++this.seq;
    const text = message({ id: `${this.run}-${seq}`, event: 'job', data });
    this.buffer.push({ seq, name: 'job', text, dedupeKey });
    if (this.buffer.length > this.bufferSize) this.buffer.shift();
    this.broadcast(text);
    return { id: `${this.run}-${seq}`, duplicate: false };
  }

  /** Sends a queue event (a document of the team queue changed) to every browser, kept for replay. */
  publishQueue(data: QueueEvent): string {
    const seq = ++this.seq;
    const text = message({ id: `${this.run}-${seq}`, event: 'queue', data });
    this.buffer.push({ seq, name: 'queue', text, dedupeKey: `queue/${data.documentId}/${data.version}` });
    if (this.buffer.length > this.bufferSize) this.buffer.shift();
    this.broadcast(text);
    return `${this.run}-${seq}`;
  }

  /**
   * Tells every browser to refetch what it follows (`event: resync`), kept for replay: this copy may
   * have missed changes (its database's LISTEN connection broke and is back; queue-bus.ts `onGap`).
   */
  publishResync(reason: ResyncEvent['reason']): string {
    const seq = ++this.seq;
    const data: ResyncEvent = { reason };
    const text = message({ id: `${this.run}-${seq}`, event: 'resync', data });
    this.buffer.push({ seq, name: 'resync', text, dedupeKey: `resync/${seq}` });
    if (this.buffer.length > this.bufferSize) this.buffer.shift();
    this.broadcast(text);
    return `${this.run}-${seq}`;
  }

  /**
   * A new subscriber's stream: the `retry:` hint, then what `lastEventId` missed (or a `resync`),
   * then every event as it comes, with heartbeats, until the browser goes away (the stream is
   * cancelled) or the hub closes.
   */
  subscribe(lastEventId: string | undefined, signal?: AbortSignal): ReadableStream<Uint8Array> {
    let subscriber: Subscriber | undefined;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          subscriber = { controller, closed: false };
          controller.enqueue(encoder.encode(this.opening(lastEventId)));
          if (this.closed) {
            subscriber.closed = true;
            controller.close();
            return;
          }
          this.subscribers.add(subscriber);
        },
        cancel: () => {
          if (subscriber) this.drop(subscriber);
        },
      },
      { highWaterMark: this.maxQueued },
    );
    signal?.addEventListener('abort', () => subscriber && this.end(subscriber), { once: true });
    return stream;
  }

  /** Ends every stream (browsers will try to reconnect) and stops the heartbeat. */
  close(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const subscriber of [...this.subscribers]) this.end(subscriber);
  }

  /** What a stream starts with. */
  private opening(lastEventId: string | undefined): string {
    const retry = `retry: ${this.retryMs}\n`;
    const given = lastEventId?.trim() ?? '';
    if (given === '') return `${retry}id: ${this.currentId}\n\n`;

    const match = /^([0-9a-f]+)-(\d+)$/.exec(given);
    const seq = match?.[1] === this.run ? Number(match[2]) : undefined;
    if (seq === undefined || seq > this.seq) return `${retry}\n${this.resync('unknown')}`;
    const oldest = this.buffer[0]?.seq ?? this.seq + 1;
    // Events after `seq` are all still here when the next one after it is.
    if (seq + 1 < oldest) return `${retry}\n${this.resync('expired')}`;
    return `${retry}\n${this.buffer
      .filter((event) => event.seq > seq)
      .map((event) => event.text)
      .join('')}`;
  }

  private resync(reason: ResyncEvent['reason']): string {
    const data: ResyncEvent = { reason };
    return message({ id: this.currentId, event: 'resync', data });
  }

  private broadcast(text: string): void {
    const bytes = encoder.encode(text);
    for (const subscriber of this.subscribers) {
      const { controller } = subscriber;
      // A connection that does not take what it is sent (a stalled peer) is let go; its browser, if
      // it is still there, reconnects and catches up from the buffer.
      if ((controller.desiredSize ?? 0) <= 0) {
        this.end(subscriber);
        continue;
      }
      controller.enqueue(bytes);
    }
  }

  private end(subscriber: Subscriber): void {
    if (subscriber.closed) return;
    this.drop(subscriber);
    try {
      subscriber.controller.close();
    } catch {
      // Already cancelled by the other side.
    }
  }

  private drop(subscriber: Subscriber): void {
    subscriber.closed = true;
    this.subscribers.delete(subscriber);
  }
}

/** One SSE message. The data is one line of compact JSON (JSON.stringify escapes line breaks). */
function message(parts: { id: string; event: AppEventName; data: unknown }): string {
  return `id: ${parts.id}\nevent: ${parts.event}\ndata: ${JSON.stringify(parts.data)}\n\n`;
}
