/** What the app server's event stream and app-config send, as the browser reads them. */
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../http';
import {
  AppConfig,
  appConfigKey,
  appEventsUp,
  appConfigQueryOptions,
  JobEvent,
  parseAppEvent,
  REOPEN_AFTER_MS,
  subscribeToAppEvents,
  subscribeToAppEventsStatus,
  type EventSourceLike,
} from './app-events';

const job = {
  version: 'v2',
  jobId: '7a0e4c1b-2d3f-4e5a-9b6c-8d7e6f5a4b3c',
  status: 'Processed',
  inferenceId: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
  receivedAt: '2026-03-14T09:27:01.120Z',
};

describe('parseAppEvent', () => {
  it('reads a job event and a resync event by their SSE names', () => {
    expect(parseAppEvent('job', JSON.stringify(job))).toEqual({ type: 'job', data: job });
    const failed = { ...job, status: 'Failed', inferenceId: undefined };
    expect(parseAppEvent('job', JSON.stringify(failed))).toEqual({
      type: 'job',
      data: { version: 'v2', jobId: job.jobId, status: 'Failed', receivedAt: job.receivedAt },
    });
    expect(parseAppEvent('resync', '{"reason":"expired"}')).toEqual({
      type: 'resync',
      data: { reason: 'expired' },
    });
  });

  it('returns null for anything else: unknown names, other versions and statuses, broken JSON', () => {
    expect(parseAppEvent('message', JSON.stringify(job))).toBeNull();
    expect(parseAppEvent('job', JSON.stringify({ ...job, version: 'v1' }))).toBeNull();
    expect(parseAppEvent('job', JSON.stringify({ ...job, status: 'Processing' }))).toBeNull();
    expect(parseAppEvent('job', JSON.stringify({ ...job, receivedAt: 'yesterday' }))).toBeNull();
    expect(parseAppEvent('job', '{')).toBeNull();
    expect(parseAppEvent('resync', '{"reason":"bored"}')).toBeNull();
  });

  it('accepts a job event without inferenceId', () => {
    const { inferenceId: _, ...rest } = job;
    expect(JobEvent.safeParse(rest).success).toBe(true);
  });
});

describe('AppConfig', () => {
  it('takes webhook ids as UUIDs and the events flag', () => {
    // An older server says nothing of v1: the app's own thresholds then apply.
    expect(AppConfig.parse({ v2: { webhookIds: [job.jobId] }, events: true })).toEqual({
      v2: { webhookIds: [job.jobId] },
      events: true,
      v1: { confidenceThresholds: null },
    });
    expect(AppConfig.safeParse({ v2: { webhookIds: ['x'] }, events: true }).success).toBe(false);
    expect(AppConfig.safeParse({ v2: { webhookIds: [] } }).success).toBe(false);
  });

  it("takes the operator's v1 confidence thresholds, highest first, and refuses others", () => {
    const config = (confidenceThresholds: unknown) => ({
      v2: { webhookIds: [] },
      events: false,
      v1: { confidenceThresholds },
    });
    const thresholds = { certain: 0.9, high: 0.75, medium: 0.5 };
    expect(AppConfig.parse(config(thresholds)).v1.confidenceThresholds).toEqual(thresholds);
    expect(AppConfig.safeParse(config({ certain: 0.5, high: 0.75, medium: 0.9 })).success).toBe(false);
    expect(AppConfig.safeParse(config({ certain: 1.2, high: 0.75, medium: 0.5 })).success).toBe(false);
  });

  it('is one query, kept for the session', () => {
    expect(appConfigQueryOptions().queryKey).toEqual(appConfigKey);
    expect(appConfigQueryOptions().staleTime).toBe(Infinity);
  });
});

describe('subscribeToAppEvents', () => {
  /** A stand-in EventSource that counts how many streams are opened and closed. */
  class CountingSource implements EventSourceLike {
    static opened = 0;
    static closed = 0;
    private readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
    constructor(readonly url: string) {
      CountingSource.opened += 1;
    }
    addEventListener(type: string, listener: (event: MessageEvent) => void): void {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    close(): void {
      CountingSource.closed += 1;
    }
    emit(type: string, data: unknown): void {
      for (const listener of this.listeners.get(type) ?? []) {
        listener(new MessageEvent(type, { data: JSON.stringify(data) }));
      }
    }
  }

  it('shares one stream between the subscribers of a tab, and closes it with the last one', () => {
    const client = createApiClient({ baseUrl: 'http://127.0.0.1:1/api' });
    const queue: unknown[] = [];
    const jobs: unknown[] = [];
    const stopQueue = subscribeToAppEvents(
      { onQueue: (e) => queue.push(e) },
      { client, EventSource: CountingSource },
    );
    const stopJobs = subscribeToAppEvents(
      { onJob: (e) => jobs.push(e) },
      { client, EventSource: CountingSource },
    );
    expect(CountingSource.opened).toBe(1);
    stopQueue();
    expect(CountingSource.closed).toBe(0);
    stopJobs();
    expect(CountingSource.closed).toBe(1);
    // A later subscriber opens a new one.
    const again = subscribeToAppEvents({}, { client, EventSource: CountingSource });
    expect(CountingSource.opened).toBe(2);
    again();
    expect(queue).toEqual([]);
    expect(jobs).toEqual([]);
  });

  /** A stand-in EventSource whose state the test sets, as the browser's would be after a failure. */
  class StatefulSource implements EventSourceLike {
    static all: StatefulSource[] = [];
    readyState = 0;
    closed = false;
    private readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
    constructor(readonly url: string) {
      StatefulSource.all.push(this);
    }
    addEventListener(type: string, listener: (event: MessageEvent) => void): void {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    close(): void {
      this.closed = true;
    }
    emit(type: string, data?: unknown): void {
      for (const listener of this.listeners.get(type) ?? []) {
        listener(new MessageEvent(type, { data: data === undefined ? undefined : JSON.stringify(data) }));
      }
    }
  }

  it('opens a stream the browser gave up on (a 503 while the store is away) again, and asks for a resync', () => {
    vi.useFakeTimers();
    try {
      const client = createApiClient({ baseUrl: 'http://127.0.0.2:1/api' });
      const resyncs: unknown[] = [];
      const queue: unknown[] = [];
      const connected: boolean[] = [];
      const stop = subscribeToAppEvents(
        {
          onResync: (e) => resyncs.push(e),
          onQueue: (e) => queue.push(e),
          onConnectionChange: (c) => connected.push(c),
        },
        { client, EventSource: StatefulSource },
      );
      const [first] = StatefulSource.all;
      first?.emit('open');
      // A break the browser mends by itself (CONNECTING): nothing to do.
      first?.emit('error');
      vi.advanceTimersByTime(REOPEN_AFTER_MS);
      expect(StatefulSource.all).toHaveLength(1);
      // The reconnection was answered 503: the browser gives up (CLOSED).
      if (first) first.readyState = 2;
      first?.emit('error');
      vi.advanceTimersByTime(REOPEN_AFTER_MS - 1);
      expect(StatefulSource.all).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(StatefulSource.all).toHaveLength(2);
      const second = StatefulSource.all[1];
      second?.emit('open');
      expect(connected).toEqual([true, false, false, true]);
      // What was sent meanwhile is unknown to the new stream: refetch.
      expect(resyncs).toEqual([{ reason: 'unknown' }]);
      const change = {
        documentId: 'd1',
        state: 'to_review',
        version: 2,
        holderId: null,
        at: '2026-11-28T08:00:00.000Z',
      };
      second?.emit('queue', change);
      expect(queue).toEqual([change]);
      stop();
      expect(second?.closed).toBe(true);
      // Given up again after the last subscriber left: nothing is reopened.
      if (second) second.readyState = 2;
      second?.emit('error');
      vi.advanceTimersByTime(REOPEN_AFTER_MS * 2);
      expect(StatefulSource.all).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says whether the stream is up: open, broken, closed with its last subscriber', () => {
    const client = createApiClient({ baseUrl: 'http://127.0.0.3:1/api' });
    const changes: boolean[] = [];
    const stopStatus = subscribeToAppEventsStatus(() => changes.push(appEventsUp()));
    const stop = subscribeToAppEvents({}, { client, EventSource: StatefulSource });
    const source = StatefulSource.all.at(-1);
    // Not open yet: the queue lists poll until it is.
    expect(appEventsUp()).toBe(false);
    source?.emit('open');
    expect(appEventsUp()).toBe(true);
    source?.emit('error');
    expect(appEventsUp()).toBe(false);
    source?.emit('open');
    stop();
    expect(appEventsUp()).toBe(false);
    expect(changes).toEqual([true, false, true, false]);
    stopStatus();
  });
});
