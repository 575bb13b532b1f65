/**
 * The team queue follows the server's events: a `resync` (the server says it may have missed queue
 * changes: its database connection broke and is back, or this tab's place in the stream is lost)
 * marks every queue list and open review stale, so what is shown is fetched again.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewKeys } from '../api/keys';
import { QueueLiveUpdates } from './queue-live-updates';

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
  emit(type: string, data: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) {
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
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
});
