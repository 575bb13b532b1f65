/** Test helpers for the queue view: documents and pages as the API answers them, and a rendering shell. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { reviewKeys } from '../../../api/keys';
import type {
  QueueDocument,
  QueuePage,
  SessionResponse,
  StateCounts,
} from '@extraction-review/contract/review/schemas';

export const ALICE = { id: 'op-alice', name: 'Alice' };
export const BOB = { id: 'op-bob', name: 'Bob' };

export function queueDocument(overrides: Partial<QueueDocument> = {}): QueueDocument {
  return {
    id: 'D1',
    version: 1,
    apiVersion: 'v2',
    model: 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a',
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
  };
}

export const COUNTS: StateCounts = {
  to_review: 12,
  in_review: 3,
  postponed: 1,
  confirmed: 40,
  rejected: 2,
  processing: 4,
  failed: 1,
};

export function queuePage(overrides: Partial<QueuePage> = {}): QueuePage {
  return { documents: [queueDocument()], nextCursor: null, counts: COUNTS, ...overrides };
}

export function session(role: 'admin' | 'operator' = 'operator'): SessionResponse {
  return {
    operator: { ...ALICE, role, hasPassword: true, createdAt: '2026-01-01T00:00:00.000Z' },
    csrfToken: 'csrf',
  };
}

/** Renders under a fresh query client (the session already known) and an in-memory location. */
export function renderQueue(
  ui: ReactNode,
  { search = '', signedIn = session() }: { search?: string; signedIn?: SessionResponse | null } = {},
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(reviewKeys.session(), signedIn);
  const location = memoryLocation({ path: '/queue', searchPath: search, record: true });
  const view = render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {ui}
      </Router>
    </QueryClientProvider>,
  );
  /** The current path and query string, as the address bar would show it. */
  const url = () => location.history.at(-1) ?? '';
  return { ...view, client, location, url };
}
