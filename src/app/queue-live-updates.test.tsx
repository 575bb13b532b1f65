/**
 * The team queue follows the server's events: a `resync` (the server says it may have missed queue
 * changes: its database connection broke and is back, or this tab's place in the stream is lost)
 * marks every queue list and open review stale, so what is shown is fetched again.
 */
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewKeys } from '../api/keys';
import type * as Endpoints from '../api/review/endpoints';
import { getQueueRow, listQueue, queueCounts } from '../api/review/endpoints';
import { QUEUE_POLL_MS, queueQueryOptions } from '../api/review/queries';
import type { QueuePage } from '@extraction-review/contract/review/schemas';
import { BOB, COUNTS, queueDocument, queuePage, session } from '../features/queue/testing/fixtures';
import { useAppEventsUp } from '../lib/use-app-events-up';
import { QueueLiveUpdates } from './queue-live-updates';

vi.mock('../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  listQueue: vi.fn(),
  getQueueRow: vi.fn(),
  queueCounts: vi.fn(),
}));

/** The browser's EventSource, as far as the app uses it; the test plays the server. */
class FakeSource {
  static last: FakeSource | undefined;
  private readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {}
  emit(type: string, data?: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) {
      listener(new MessageEvent(type, { data: data === undefined ? undefined : JSON.stringify(data) }));
    }
  }
}

describe('QueueLiveUpdates', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeSource.last = undefined;
  });

  it.each(['missed', 'expired'] as const)(
    'marks the queue and open reviews stale on a resync (%s)',
    async (reason) => {
      vi.stubGlobal('EventSource', FakeSource);
      const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
      client.setQueryData(reviewKeys.session(), {
        operator: { id: 'op-1', name: 'Ann', role: 'operator' },
        csrfToken: 'csrf',
      });
      client.setQueryData(reviewKeys.queue({ state: 'to_review' }), { documents: [] });
      client.setQueryData(reviewKeys.document('doc-1'), { document: { version: 3 } });
      const view = render(
        <QueryClientProvider client={client}>
          <QueueLiveUpdates />
        </QueryClientProvider>,
      );
      const source = FakeSource.last;
      expect(source?.url).toMatch(/\/api\/events$/);
      const stale = () =>
        [reviewKeys.queue({ state: 'to_review' }), reviewKeys.document('doc-1')].map(
          (key) => client.getQueryState(key)?.isInvalidated,
        );
      expect(stale()).toEqual([false, false]);

      await act(async () => source?.emit('resync', { reason }));
      expect(stale()).toEqual([true, true]);
      view.unmount();
    },
  );

  /** A queue list shown as the queue page shows it: polling only while the stream is not up. */
  function ShownQueue() {
    const eventsUp = useAppEventsUp();
    useQuery(queueQueryOptions({ limit: 50 }, { eventsUp }));
    return null;
  }

  function renderShownQueue() {
    vi.stubGlobal('EventSource', FakeSource);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(reviewKeys.session(), session());
    client.setQueryData(reviewKeys.queue({ limit: 50 }), queuePage());
    vi.mocked(listQueue).mockReset().mockResolvedValue(queuePage());
    const view = render(
      <QueryClientProvider client={client}>
        <QueueLiveUpdates />
        <ShownQueue />
      </QueryClientProvider>,
    );
    return { client, view, source: FakeSource.last };
  }

  it('polls the list shown until the stream is open, not while it is, and again once it breaks', async () => {
    vi.useFakeTimers();
    try {
      const { view, source } = renderShownQueue();
      await act(() => vi.advanceTimersByTimeAsync(0));
      const reads = () => vi.mocked(listQueue).mock.calls.length;
      const before = reads();
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_POLL_MS));
      expect(reads()).toBe(before + 1);

      act(() => source?.emit('open'));
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_POLL_MS * 5));
      expect(reads()).toBe(before + 1);

      act(() => source?.emit('error'));
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_POLL_MS));
      expect(reads()).toBe(before + 2);
      view.unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('on a queue event reads the one row and the counts, not the list', async () => {
    vi.useFakeTimers();
    try {
      const taken = queueDocument({ version: 2, state: 'in_review', holder: BOB });
      vi.mocked(getQueueRow).mockReset().mockResolvedValue({ document: taken });
      const counts = { ...COUNTS, to_review: 11, in_review: 4 };
      vi.mocked(queueCounts).mockReset().mockResolvedValue({ counts });
      const { client, view, source } = renderShownQueue();
      act(() => source?.emit('open'));
      await act(() => vi.advanceTimersByTimeAsync(0));
      const listReads = vi.mocked(listQueue).mock.calls.length;

      await act(async () => {
        source?.emit('queue', {
          documentId: 'D1',
          state: 'in_review',
          version: 2,
          holderId: BOB.id,
          at: '2026-11-28T08:00:00.000Z',
        });
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(vi.mocked(getQueueRow).mock.calls.map(([id]) => id)).toEqual(['D1']);
      expect(vi.mocked(queueCounts).mock.calls.map(([filters]) => filters)).toEqual([{}]);
      expect(client.getQueryData<QueuePage>(reviewKeys.queue({ limit: 50 }))).toEqual(
        queuePage({ documents: [taken], counts }),
      );
      await act(() => vi.advanceTimersByTimeAsync(QUEUE_POLL_MS * 3));
      expect(vi.mocked(listQueue).mock.calls.length).toBe(listReads);
      view.unmount();
    } finally {
      vi.useRealTimers();
    }
  });
});
