import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { reviewKeys } from '../../api/keys';
import type * as Endpoints from '../../api/review/endpoints';
import { listQueue } from '../../api/review/endpoints';
import type { QueueDocument, QueuePage } from '@extraction-review/contract/review/schemas';
import { formatDateTime } from '../../lib/format';
import { UploadsPage } from './uploads-page';
import { uploadHref } from './uploads-table';

vi.mock('../../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof Endpoints>()),
  listQueue: vi.fn(),
}));

const ALICE = { id: 'op-alice', name: 'Alice' };
const BOB = { id: 'op-bob', name: 'Bob' };

function upload(overrides: Partial<QueueDocument> = {}): QueueDocument {
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
    upstreamJobId: 'job-1',
    upstreamResultId: 'inf-1',
    uploadedBy: ALICE,
    duplicateOf: null,
    ...overrides,
  };
}

const page = (documents: QueueDocument[], nextCursor: string | null = null): QueuePage => ({
  documents,
  nextCursor,
  counts: { processing: 0, failed: 0, to_review: 0, in_review: 0, confirmed: 0, rejected: 0, postponed: 0 },
});

function renderUploads(search = '') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(reviewKeys.session(), {
    operator: { ...ALICE, role: 'operator', hasPassword: true, createdAt: '2026-01-01T00:00:00.000Z' },
    csrfToken: 'csrf',
  });
  const location = memoryLocation({ path: '/uploads', searchPath: search, record: true });
  render(
    <QueryClientProvider client={client}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <UploadsPage />
      </Router>
    </QueryClientProvider>,
  );
  return { url: () => location.history.at(-1) ?? '' };
}

const lastQuery = () => vi.mocked(listQueue).mock.lastCall?.[0];

beforeEach(() => {
  vi.mocked(listQueue).mockReset();
});

describe('UploadsPage', () => {
  beforeEach(() => {
    vi.mocked(listQueue).mockImplementation((query) =>
      Promise.resolve(
        query.uploadedBy === ALICE.id
          ? page([upload()])
          : page([
              upload({
                id: 'D2',
                fileName: 'invoice-1 (copy).pdf',
                uploadedBy: BOB,
                state: 'confirmed',
                duplicateOf: { id: 'D1', fileName: 'invoice-1.pdf' },
              }),
              upload(),
            ]),
      ),
    );
  });

  it('lists my uploads by default: who, when, state, a link to the review', async () => {
    renderUploads();
    const mine = await screen.findByRole('row', { name: /invoice-1\.pdf/ });
    expect(lastQuery()).toEqual({ limit: 25, uploadedBy: ALICE.id });
    expect(within(mine).getByText('You')).toBeInTheDocument();
    expect(within(mine).getByText('To review')).toBeInTheDocument();
    expect(within(mine).getByText(formatDateTime('2026-01-05T08:00:00.000Z'))).toBeInTheDocument();
    expect(within(mine).getByRole('link', { name: 'invoice-1.pdf' })).toHaveAttribute('href', '/review/D1');
  });

  it('lists everyone’s on demand, a duplicate marked with a link to the first', async () => {
    const { url } = renderUploads();
    await screen.findByRole('row', { name: /invoice-1\.pdf/ });
    await userEvent.click(screen.getByRole('radio', { name: 'Everyone’s' }));
    expect(url()).toBe('/uploads?who=everyone');
    const bobs = await screen.findByRole('row', { name: /copy/ });
    expect(lastQuery()).toEqual({ limit: 25 });
    expect(within(bobs).getByText('Bob')).toBeInTheDocument();
    expect(within(bobs).getByText('Confirmed')).toBeInTheDocument();
    expect(within(bobs).getByText('Duplicate of')).toBeInTheDocument();
    expect(within(bobs).getByRole('link', { name: 'invoice-1.pdf' })).toHaveAttribute('href', '/review/D1');
  });

  it('pages through older uploads', async () => {
    vi.mocked(listQueue).mockReset();
    vi.mocked(listQueue).mockImplementation((query) =>
      Promise.resolve(
        query.cursor === 'c2' ? page([upload({ id: 'D0', fileName: 'older.pdf' })]) : page([upload()], 'c2'),
      ),
    );
    renderUploads('who=everyone');
    await screen.findByRole('row', { name: /invoice-1\.pdf/ });
    await userEvent.click(screen.getByRole('button', { name: /Older/ }));
    await screen.findByRole('row', { name: /older\.pdf/ });
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Newer/ }));
    await screen.findByRole('row', { name: /invoice-1\.pdf/ });
  });

  it('says so when there is nothing yet', async () => {
    vi.mocked(listQueue).mockReset();
    vi.mocked(listQueue).mockResolvedValue(page([]));
    renderUploads();
    expect(await screen.findByText(/You have not uploaded anything yet/)).toBeInTheDocument();
  });
});

describe('uploadHref', () => {
  it('opens the review once the result is in, the job’s page while it runs or when it failed', () => {
    expect(uploadHref(upload())).toBe('/review/D1');
    expect(uploadHref(upload({ state: 'processing' }))).toBe('/jobs/job-1');
    expect(uploadHref(upload({ state: 'failed', apiVersion: 'v1' }))).toBe('/jobs/v1/job-1');
    expect(uploadHref(upload({ state: 'processing', upstreamJobId: null }))).toBe('/review/D1');
  });
});
