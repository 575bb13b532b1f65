/**
 * A queue event changes what shows it and nothing more (issue 22): the one row read and put in place
 * (or taken out), the counts read, a new document brought by the first page of the lists that put new
 * documents first; never a whole list read again for a row, never a deep page; bursts coalesced.
 */
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reviewKeys } from '../api/keys';
import { savedQueuesKey } from '../api/review/saved-queue-endpoints';
import type { QueueEvent } from '../api/v2/app-events';
import type { QueuePage, QueueQuery, StateCounts } from '@extraction-review/contract/review/schemas';
import { ALICE, BOB, COUNTS, queueDocument, queuePage, session } from '../features/queue/testing/fixtures';
import { COALESCE_MS, createQueueLiveCache, createThrottle, type LiveQueueReads } from './queue-live-cache';

const FRESH_COUNTS: StateCounts = { ...COUNTS, to_review: 11, in_review: 4 };

const event = (
  documentId: string,
  version: number,
  state: QueueEvent['state'] = 'in_review',
): QueueEvent => ({
  documentId,
  state,
  version,
  holderId: null,
  at: '2026-11-28T08:00:00.000Z',
});

describe('createQueueLiveCache', () => {
  let client: QueryClient;
  let listReads: QueryKey[];
  let reads: {
    row: ReturnType<typeof vi.fn<LiveQueueReads['row']>>;
    counts: ReturnType<typeof vi.fn<LiveQueueReads['counts']>>;
  };
  const stops: (() => void)[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(reviewKeys.session(), session());
    listReads = [];
    reads = {
      row: vi.fn<LiveQueueReads['row']>(),
      counts: vi.fn<LiveQueueReads['counts']>().mockResolvedValue(FRESH_COUNTS),
    };
  });
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
    vi.useRealTimers();
  });

  /** A list page in the cache; `shown` gives it an observer, as a mounted page does. */
  function cachedList(query: Partial<QueueQuery>, page: QueuePage, { shown = true } = {}) {
    const key = reviewKeys.queue(query);
    client.setQueryData(key, page);
    if (shown) {
      const observer = new QueryObserver(client, {
        queryKey: key,
        queryFn: () => {
          listReads.push(key);
          return page;
        },
      });
      stops.push(observer.subscribe(() => {}));
    }
    return key;
  }
  const documentsOf = (key: QueryKey) => client.getQueryData<QueuePage>(key)?.documents;
  const countsOf = (key: QueryKey) => client.getQueryData<QueuePage>(key)?.counts;

  it('reads the one changed row and puts it in place in every page showing it, and reads the counts', async () => {
    const other = queueDocument({ id: 'D2', fileName: 'other.pdf' });
    const all = cachedList({ limit: 50 }, queuePage({ documents: [queueDocument(), other] }));
    const mine = cachedList({ q: 'invoice', limit: 50 }, queuePage());
    const taken = queueDocument({ version: 2, state: 'in_review', holder: BOB });
    reads.row.mockResolvedValue(taken);
    const live = createQueueLiveCache(client, { reads });

    live.onQueue(event('D1', 2));
    await vi.advanceTimersByTimeAsync(0);

    expect(reads.row.mock.calls).toEqual([['D1']]);
    expect(documentsOf(all)).toEqual([taken, other]);
    expect(documentsOf(mine)).toEqual([taken]);
    // One counts read per set of filters shown (`state` aside), written into each of its pages.
    expect(reads.counts.mock.calls).toEqual([[{}], [{ q: 'invoice' }]]);
    expect(countsOf(all)).toEqual(FRESH_COUNTS);
    expect(countsOf(mine)).toEqual(FRESH_COUNTS);
    // No list was read again.
    expect(listReads).toEqual([]);
    live.dispose();
  });

  it('takes a row out when the document is gone or no longer fits the list’s filters', async () => {
    const toReview = cachedList({ state: 'to_review', limit: 50 }, queuePage());
    const everything = cachedList({ limit: 50 }, queuePage());
    const live = createQueueLiveCache(client, { reads });

    reads.row.mockResolvedValueOnce(queueDocument({ version: 2, state: 'in_review', holder: ALICE }));
    live.onQueue(event('D1', 2));
    await vi.advanceTimersByTimeAsync(0);
    expect(documentsOf(toReview)).toEqual([]);
    expect(documentsOf(everything)?.map((d) => d.state)).toEqual(['in_review']);

    // Deleted (the row's read answers 404): out of every list.
    reads.row.mockResolvedValueOnce(null);
    live.onQueue(event('D1', 3));
    await vi.advanceTimersByTimeAsync(COALESCE_MS);
    expect(documentsOf(everything)).toEqual([]);
    expect(listReads).toEqual([]);
    live.dispose();
  });

  it('does not read a row the pages already show at that version (this tab’s own write)', async () => {
    cachedList({ limit: 50 }, queuePage({ documents: [queueDocument({ version: 4 })] }));
    const live = createQueueLiveCache(client, { reads });
    live.onQueue(event('D1', 4));
    await vi.advanceTimersByTimeAsync(0);
    expect(reads.row).not.toHaveBeenCalled();
    expect(reads.counts).toHaveBeenCalledTimes(1);
    live.dispose();
  });

  it('reads again the page of a list ordered by what changed, rather than leave the row out of order', async () => {
    const byState = cachedList({ sort: 'state', cursor: 'c2', limit: 50 }, queuePage());
    reads.row.mockResolvedValue(queueDocument({ version: 2, state: 'in_review', holder: BOB }));
    const live = createQueueLiveCache(client, { reads });
    live.onQueue(event('D1', 2));
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads).toEqual([byState]);
    live.dispose();
  });

  it('brings a new document by the first page of the shown lists that put new ones first, no other page', async () => {
    const first = cachedList({ limit: 50 }, queuePage());
    cachedList({ limit: 50, cursor: 'page-2' }, queuePage({ documents: [queueDocument({ id: 'D9' })] }));
    cachedList({ limit: 50, sort: 'name' }, queuePage());
    cachedList({ limit: 50, sort: 'received' }, queuePage());
    cachedList({ limit: 50, q: 'elsewhere' }, queuePage(), { shown: false });
    const live = createQueueLiveCache(client, { reads });

    live.onQueue(event('NEW', 1, 'processing'));
    await vi.advanceTimersByTimeAsync(0);

    expect(listReads).toEqual([first]);
    expect(reads.row).not.toHaveBeenCalled();
    // The counts of the shown lists' filters (one set: none); the list not shown is read when shown.
    expect(reads.counts.mock.calls).toEqual([[{}]]);
    live.dispose();
  });

  it('coalesces a burst: one read at once, one more when the window closes, none after', async () => {
    const first = cachedList({ limit: 50 }, queuePage());
    // The saved queues' waiting counts, shown above the list.
    const savedReads = vi.fn(() => ({ queues: [] }));
    client.setQueryData(savedQueuesKey(), { queues: [] });
    const saved = new QueryObserver(client, { queryKey: savedQueuesKey(), queryFn: savedReads });
    stops.push(saved.subscribe(() => {}));
    reads.row.mockImplementation(async () => queueDocument({ version: 9, state: 'in_review', holder: BOB }));
    const live = createQueueLiveCache(client, { reads });

    for (let n = 0; n < 10; n++) {
      live.onQueue(event('D1', 2 + n));
      live.onQueue(event(`NEW-${String(n)}`, 1, 'processing'));
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(reads.row).toHaveBeenCalledTimes(1);
    expect(reads.counts).toHaveBeenCalledTimes(1);
    expect(listReads).toEqual([first]);

    await vi.advanceTimersByTimeAsync(COALESCE_MS - 1);
    expect(reads.counts).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(reads.counts).toHaveBeenCalledTimes(2);
    expect(listReads).toEqual([first, first]);

    await vi.advanceTimersByTimeAsync(COALESCE_MS * 5);
    expect(reads.counts).toHaveBeenCalledTimes(2);
    expect(listReads).toHaveLength(2);
    expect(savedReads).toHaveBeenCalledTimes(2);
    live.dispose();
  });
});

describe('createThrottle', () => {
  it('runs at once, then the latest task asked for meanwhile when the window closes', () => {
    vi.useFakeTimers();
    try {
      const ran: string[] = [];
      const throttle = createThrottle(1_000);
      throttle.run('k', () => ran.push('a'));
      throttle.run('k', () => ran.push('b'));
      throttle.run('k', () => ran.push('c'));
      throttle.run('other', () => ran.push('x'));
      expect(ran).toEqual(['a', 'x']);
      vi.advanceTimersByTime(1_000);
      expect(ran).toEqual(['a', 'x', 'c']);
      vi.advanceTimersByTime(1_000);
      throttle.run('k', () => ran.push('d'));
      expect(ran).toEqual(['a', 'x', 'c', 'd']);
      throttle.run('k', () => ran.push('e'));
      throttle.dispose();
      vi.advanceTimersByTime(5_000);
      expect(ran).toEqual(['a', 'x', 'c', 'd']);
    } finally {
      vi.useRealTimers();
    }
  });
});
