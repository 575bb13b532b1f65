import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import { reviewKeys } from '../../api/keys';
import { importDocument } from '../../api/review/endpoints';
import type { ImportResponse } from '@extraction-review/contract/review/schemas';
import { getJob } from '../../api/v2/endpoints';
import type * as DocumentStore from '../../lib/document-store';
import { listJobs } from '../../lib/document-store';
import { loadDraft } from '../../lib/draft-store';
import { ImportBanner } from './import-banner';
import { IMPORT_OFFER_KEY } from './import-offer';
import { renderQueue } from './testing/fixtures';
import { imported, keptJob, v2Answer } from './testing/kept-jobs';

vi.mock('../../api/review/endpoints', () => ({ importDocument: vi.fn() }));
vi.mock('../../api/v2/endpoints', () => ({ getJob: vi.fn(), getExtractionResult: vi.fn() }));
vi.mock('../../api/v1/endpoints', () => ({
  getDocument: vi.fn(),
  getQueuedJob: vi.fn(),
  v1JobFailure: vi.fn(),
}));
vi.mock('../../lib/draft-store', () => ({ loadDraft: vi.fn() }));
vi.mock('../../lib/document-store', async (importOriginal) => ({
  ...(await importOriginal<typeof DocumentStore>()),
  listJobs: vi.fn(),
}));

const remembered = () => JSON.parse(localStorage.getItem(IMPORT_OFFER_KEY) ?? 'null') as unknown;
const banner = () => screen.queryByRole('region', { name: 'Jobs kept in this browser' });

/**
 * Four jobs kept before: two with their result in a draft, one the service no longer has, one it
 * cannot be asked about now.
 */
const KEPT = [
  keptJob({ jobId: 'offline', filename: 'offline.pdf', createdAt: '2026-01-04T00:00:00.000Z' }),
  keptJob({ jobId: 'a', filename: 'a.pdf', createdAt: '2026-01-03T00:00:00.000Z' }),
  keptJob({ jobId: 'b', filename: 'b.pdf', createdAt: '2026-01-02T00:00:00.000Z' }),
  keptJob({ jobId: 'gone', filename: 'gone.pdf', createdAt: '2026-01-01T00:00:00.000Z' }),
];

beforeEach(() => {
  localStorage.clear();
  vi.mocked(listJobs).mockReset().mockResolvedValue(KEPT);
  vi.mocked(loadDraft)
    .mockReset()
    .mockImplementation(async (jobId) =>
      jobId === 'gone' || jobId === 'offline'
        ? null
        : {
            values: {},
            removed: [],
            added: {},
            reviewed: [],
            result: v2Answer(jobId),
            updatedAt: '2026-01-04T00:00:00.000Z',
          },
    );
  vi.mocked(getJob)
    .mockReset()
    .mockImplementation(async (jobId) => {
      const endpoint = `GET /api/v2/jobs/${jobId}`;
      throw jobId === 'gone'
        ? new ApiError('Not found', { endpoint, status: 404 })
        : new NetworkError({ endpoint });
    });
  vi.mocked(importDocument).mockReset().mockResolvedValue(imported(true));
});

describe('ImportBanner', () => {
  it('offers the kept jobs once, and remembers when it first did', async () => {
    renderQueue(<ImportBanner />);
    expect(await screen.findByText('4 jobs from this browser are not in the team queue.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Import them' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Not now (never ask again)' })).toBeEnabled();
    expect(remembered()).toEqual({ offeredAt: expect.any(String), dismissed: false, settled: [] });
  });

  it('never asks again after "Not now"', async () => {
    const { unmount } = renderQueue(<ImportBanner />);
    await userEvent.click(await screen.findByRole('button', { name: 'Not now (never ask again)' }));
    expect(banner()).toBeNull();
    expect(remembered()).toMatchObject({ dismissed: true });
    unmount();

    renderQueue(<ImportBanner />);
    await waitFor(() => expect(listJobs).toHaveBeenCalledTimes(2));
    expect(banner()).toBeNull();
    expect(importDocument).not.toHaveBeenCalled();
  });

  it('imports them one by one showing how far it got, then what came of it, and refreshes the queue', async () => {
    let answer: (value: ImportResponse) => void = () => {};
    vi.mocked(importDocument).mockImplementationOnce(
      () => new Promise<ImportResponse>((resolve) => (answer = resolve)),
    );
    vi.mocked(importDocument).mockResolvedValueOnce(imported(false, 'D2'));
    const { client } = renderQueue(<ImportBanner />);
    const invalidate = vi.spyOn(client, 'invalidateQueries');

    await userEvent.click(await screen.findByRole('button', { name: 'Import them' }));
    // `offline` is skipped at once; `a`, the second, is on its way.
    expect(await screen.findByText('Importing 2 of 4…')).toBeVisible();
    const progress = screen.getByRole('progressbar', { name: 'Import' });
    expect(progress).toHaveAttribute('max', '4');
    expect(progress).toHaveAttribute('value', '1');
    await waitFor(() => expect(importDocument).toHaveBeenCalledTimes(1));
    answer(imported(true));

    const outcome = await screen.findByText('Imported 1 of 4 jobs into the team queue.');
    const status = outcome.closest('[role="status"]') as HTMLElement;
    expect(within(status).getByText('1 was in the queue already.')).toBeVisible();
    expect(
      within(status).getByText(
        '2 skipped: 1 that could not be fetched or sent now (offered again later), 1 the service no longer has.',
      ),
    ).toBeVisible();
    expect(screen.getByText('gone.pdf')).toBeInTheDocument();
    expect(screen.getByText('offline.pdf')).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: reviewKeys.queues() });

    // What came in (or was there) is settled; the job that could not be had now is offered again.
    expect(remembered()).toMatchObject({ dismissed: false, settled: ['a', 'b', 'gone'] });
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('1 job from this browser is not in the team queue.')).toBeVisible();
  });

  it('offers only the jobs kept before its first look, and none once all are dealt with', async () => {
    localStorage.setItem(
      IMPORT_OFFER_KEY,
      JSON.stringify({ offeredAt: '2026-01-02T12:00:00.000Z', dismissed: false, settled: ['gone'] }),
    );
    const { unmount } = renderQueue(<ImportBanner />);
    // `offline` and `a` were uploaded after the first look (with the queue there), `gone` is settled:
    // only `b` is left.
    expect(await screen.findByText('1 job from this browser is not in the team queue.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Import them' }));
    expect(await screen.findByText('Imported 1 of 1 job into the team queue.')).toBeVisible();
    expect(vi.mocked(importDocument).mock.calls.map(([input]) => input.metadata.upstreamJobId)).toEqual([
      'b',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(banner()).toBeNull();
    unmount();

    renderQueue(<ImportBanner />);
    await waitFor(() => expect(listJobs).toHaveBeenCalledTimes(2));
    expect(banner()).toBeNull();
  });

  it('shows nothing to a browser that kept no job, and marks it offered', async () => {
    vi.mocked(listJobs).mockResolvedValue([]);
    renderQueue(<ImportBanner />);
    await waitFor(() => expect(remembered()).toMatchObject({ dismissed: false, settled: [] }));
    expect(banner()).toBeNull();
  });

  it('stops when the page is left, and offers what is left next time', async () => {
    let answer: (value: ImportResponse) => void = () => {};
    vi.mocked(importDocument).mockImplementationOnce(
      () => new Promise<ImportResponse>((resolve) => (answer = resolve)),
    );
    const { unmount } = renderQueue(<ImportBanner />);
    await userEvent.click(await screen.findByRole('button', { name: 'Import them' }));
    await screen.findByText('Importing 2 of 4…');
    await waitFor(() => expect(importDocument).toHaveBeenCalledTimes(1));
    unmount();
    answer(imported(true));
    await waitFor(() => expect(remembered()).toMatchObject({ settled: ['a'] }));
    expect(importDocument).toHaveBeenCalledTimes(1);

    renderQueue(<ImportBanner />);
    // `a` came in; `offline`, not settled, and the two never reached are offered again.
    expect(await screen.findByText('3 jobs from this browser are not in the team queue.')).toBeVisible();
  });
});
