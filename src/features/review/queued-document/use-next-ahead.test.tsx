/**
 * The next document made ready while the current one is reviewed (use-next-ahead.ts): which one is
 * asked with the review's filters once the current file is in; its file is downloaded into the cache
 * under the key the next review reads, and drawn ahead; never the current document; one ahead at
 * most; a download under way is cancelled when the review is left; the next review finds the file
 * when the take gives that document, and downloads its own otherwise.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { reviewKeys } from '../../../api/keys';
import type * as Endpoints from '../../../api/review/endpoints';
import { getReviewDocument, peekNext } from '../../../api/review/endpoints';
import type { SessionResponse } from '@extraction-review/contract/review/schemas';
import { drawDocumentAhead } from '../viewer/preload';
import { useDocumentFile } from './use-document-file';
import { useNextDocumentAhead } from './use-next-ahead';

vi.mock('../../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  peekNext: vi.fn(),
  // Its record, as far as the look ahead reads it (a v1 one: no model schema to read ahead).
  getReviewDocument: vi.fn(async (id: string) => ({
    document: { id, apiVersion: 'v1', model: 'mindee/invoices/v4', result: {} },
  })),
}));
const released: string[] = [];
vi.mock('../viewer/preload', () => ({
  drawDocumentAhead: vi.fn((file: Blob) => () => void file.text().then((text) => released.push(text))),
}));

const ME = 'op-alice';
const session: SessionResponse = {
  operator: {
    id: ME,
    name: 'Alice',
    role: 'operator',
    hasPassword: true,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  csrfToken: 'csrf',
};

/** The files the server keeps, by document id; each request's path and abort signal. */
const requests: { path: string; signal: AbortSignal | undefined }[] = [];
let hold: Promise<void> | null = null;

beforeEach(() => {
  requests.length = 0;
  released.length = 0;
  hold = null;
  vi.mocked(peekNext).mockReset();
  vi.mocked(drawDocumentAhead).mockClear();
  vi.mocked(getReviewDocument).mockClear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ path: url, signal: init?.signal ?? undefined });
      if (hold) await hold;
      init?.signal?.throwIfAborted();
      const id = /documents\/([^/]+)\/file$/.exec(url)?.[1] ?? '?';
      return new Response(`file of ${id}`, { headers: { 'Content-Type': 'application/pdf' } });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function setUp(search = '') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(reviewKeys.session(), session);
  const location = memoryLocation({ path: '/review/A', searchPath: search });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {children}
      </Router>
    </QueryClientProvider>
  );
  return { client, wrapper };
}

const fileRequests = () => requests.map((r) => r.path);
const filePath = (id: string) => `/api/review/documents/${id}/file`;

describe('the next document, ahead', () => {
  it('asks which is next with the review’s filters once the current file is in, and downloads and draws it', async () => {
    vi.mocked(peekNext).mockResolvedValue('B');
    const { client, wrapper } = setUp('state=to_review&operator=me&q=acme');
    const { result, rerender } = renderHook(
      ({ ready }: { ready: boolean }) => useNextDocumentAhead({ current: 'A', enabled: true, ready }),
      { wrapper, initialProps: { ready: false } },
    );
    // The current document's own file first: nothing is asked for meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(peekNext).not.toHaveBeenCalled();

    rerender({ ready: true });
    await waitFor(() => expect(result.current).toBe('B'));
    expect(vi.mocked(peekNext).mock.calls[0]?.[0]).toEqual({ state: 'to_review', operator: ME, q: 'acme' });
    await waitFor(() => expect(drawDocumentAhead).toHaveBeenCalledTimes(1));
    expect(fileRequests()).toEqual([filePath('B')]);
    const kept = client.getQueryData<{ file: Blob; mimeType: string }>(reviewKeys.file('B'));
    expect(kept?.mimeType).toBe('application/pdf');
    expect(vi.mocked(drawDocumentAhead).mock.calls[0]).toEqual([kept?.file, 'application/pdf']);
    // Its record too (its result with it): with the file, all its review needs to draw the page.
    await waitFor(() => expect(client.getQueryData(reviewKeys.document('B'))).toBeDefined());
    expect(vi.mocked(getReviewDocument).mock.calls.map((call) => call[0])).toEqual(['B']);
  });

  it('asks nothing for a document the operator does not hold', async () => {
    vi.mocked(peekNext).mockResolvedValue('B');
    const { wrapper } = setUp();
    renderHook(() => useNextDocumentAhead({ current: 'A', enabled: false, ready: true }), { wrapper });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(peekNext).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('never prefetches the current document, and nothing when none is waiting', async () => {
    vi.mocked(peekNext).mockResolvedValueOnce('A').mockResolvedValueOnce(undefined);
    const { client, wrapper } = setUp();
    const { result } = renderHook(() => useNextDocumentAhead({ current: 'A', enabled: true, ready: true }), {
      wrapper,
    });
    await waitFor(() => expect(peekNext).toHaveBeenCalledTimes(1));
    await act(() => client.invalidateQueries({ queryKey: reviewKeys.queues() }));
    await waitFor(() => expect(peekNext).toHaveBeenCalledTimes(2));
    expect(result.current).toBeNull();
    expect(requests).toEqual([]);
    expect(drawDocumentAhead).not.toHaveBeenCalled();
  });

  it('keeps one document ahead: a document no longer next is let go of and dropped from the cache', async () => {
    vi.mocked(peekNext).mockResolvedValueOnce('B').mockResolvedValueOnce('C');
    const { client, wrapper } = setUp();
    const { result } = renderHook(() => useNextDocumentAhead({ current: 'A', enabled: true, ready: true }), {
      wrapper,
    });
    await waitFor(() => expect(client.getQueryData(reviewKeys.file('B'))).toBeDefined());
    // A colleague took B: the queue's lists are read again, and so is which document is next.
    await act(() => client.invalidateQueries({ queryKey: reviewKeys.queues() }));
    await waitFor(() => expect(result.current).toBe('C'));
    await waitFor(() => expect(client.getQueryData(reviewKeys.file('C'))).toBeDefined());
    expect(client.getQueryData(reviewKeys.file('B'))).toBeUndefined();
    expect(client.getQueryData(reviewKeys.document('B'))).toBeUndefined();
    await waitFor(() => expect(released).toEqual(['file of B']));
    expect(fileRequests()).toEqual([filePath('B'), filePath('C')]);
  });

  it('cancels a download under way when the review is left', async () => {
    vi.mocked(peekNext).mockResolvedValue('B');
    let let_go: () => void = () => undefined;
    hold = new Promise((resolve) => (let_go = resolve));
    const { client, wrapper } = setUp();
    const { unmount } = renderHook(() => useNextDocumentAhead({ current: 'A', enabled: true, ready: true }), {
      wrapper,
    });
    await waitFor(() => expect(requests).toHaveLength(1));
    unmount();
    expect(requests[0]?.signal?.aborted).toBe(true);
    let_go();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.getQueryData(reviewKeys.file('B'))).toBeUndefined();
    expect(drawDocumentAhead).not.toHaveBeenCalled();
  });

  it('the next review reads the file prefetched when the take gives that document, and its own otherwise', async () => {
    vi.mocked(peekNext).mockResolvedValue('B');
    const { wrapper } = setUp();
    const ahead = renderHook(() => useNextDocumentAhead({ current: 'A', enabled: true, ready: true }), {
      wrapper,
    });
    await waitFor(() => expect(drawDocumentAhead).toHaveBeenCalledTimes(1));
    ahead.unmount();

    // The take gave B: its review has the file at once, without a request.
    const taken = renderHook(() => useDocumentFile('B'), { wrapper });
    expect(taken.result.current.data?.mimeType).toBe('application/pdf');
    expect(fileRequests()).toEqual([filePath('B')]);

    // It gave C (B was taken by a colleague meanwhile): C's file is downloaded as usual.
    const other = renderHook(() => useDocumentFile('C'), { wrapper });
    expect(other.result.current.data).toBeUndefined();
    await waitFor(() => expect(other.result.current.data?.mimeType).toBe('application/pdf'));
    expect(fileRequests()).toEqual([filePath('B'), filePath('C')]);
  });
});
