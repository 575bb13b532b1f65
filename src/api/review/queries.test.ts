/** The queue list's cache keeps the newest version of each row it has seen (issue 22). */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { listQueue } from './endpoints';
import { keepNewerRows, queueQueryOptions } from './queries';
import type * as Endpoints from './endpoints';
import type { QueueDocument, QueuePage } from '@extraction-review/contract/review/schemas';

vi.mock('./endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  listQueue: vi.fn(),
}));

const queueDocument = (overrides: Partial<QueueDocument> = {}): QueueDocument => ({
  id: 'D1',
  version: 1,
  apiVersion: 'v2',
  model: 'invoices',
  fileName: 'invoice-1.pdf',
  alias: null,
  state: 'to_review',
  holder: null,
  leaseExpiresAt: null,
  decidedBy: null,
  decidedAt: null,
  reason: null,
  priority: 0,
  fieldsTotal: 10,
  fieldsToReview: 2,
  createdAt: '2026-01-05T08:00:00.000Z',
  readyAt: '2026-01-05T08:00:05.000Z',
  upstreamJobId: null,
  upstreamResultId: null,
  uploadedBy: null,
  duplicateOf: null,
  ...overrides,
});
const queuePage = (overrides: Partial<QueuePage> = {}): QueuePage => ({
  documents: [queueDocument()],
  nextCursor: null,
  counts: { to_review: 1, in_review: 0, postponed: 0, confirmed: 0, rejected: 0, processing: 0, failed: 0 },
  ...overrides,
});

describe('queueQueryOptions', () => {
  it('polls only while the tab’s event stream is not up', () => {
    expect(queueQueryOptions({}).refetchInterval).toBe(10_000);
    expect(queueQueryOptions({}, { eventsUp: true }).refetchInterval).toBe(false);
  });

  it('does not let a page read before a change bring back the row’s older version', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const options = queueQueryOptions({ limit: 50 }, { eventsUp: true });
    const newer = queueDocument({ version: 3, state: 'in_review' });
    const other = queueDocument({ id: 'D2', version: 1 });
    client.setQueryData(options.queryKey, queuePage({ documents: [newer] }));
    // The page as the server read it a moment before the change: D1 at version 2, and a new D2.
    vi.mocked(listQueue).mockResolvedValue(queuePage({ documents: [queueDocument({ version: 2 }), other] }));
    const observer = new QueryObserver(client, options);
    const stop = observer.subscribe(() => {});
    await client.refetchQueries({ queryKey: options.queryKey });
    expect(client.getQueryData(options.queryKey)?.documents).toEqual([newer, other]);
    stop();
  });
});

describe('keepNewerRows', () => {
  it('takes the next page as it is when no row of it is older', () => {
    const next = queuePage({ documents: [queueDocument({ version: 2 })] });
    expect(keepNewerRows(queuePage(), next)).toBe(next);
    expect(keepNewerRows(undefined, next)).toBe(next);
  });
});
