import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError, ProblemDetailsError } from '../../api/errors';
import { importDocument } from '../../api/review/endpoints';
import type * as V1Endpoints from '../../api/v1/endpoints';
import { getDocument, getQueuedJob } from '../../api/v1/endpoints';
import { getExtractionResult, getJob } from '../../api/v2/endpoints';
import { loadDraft, type Draft } from '../../lib/draft-store';
import { describeSkips, importKeptJobs } from './import-kept-jobs';
import { imported, keptJob, keptV1Job, v2Answer, V2_MODEL } from './testing/kept-jobs';

vi.mock('../../api/review/endpoints', () => ({ importDocument: vi.fn() }));
vi.mock('../../api/v2/endpoints', () => ({ getJob: vi.fn(), getExtractionResult: vi.fn() }));
vi.mock('../../api/v1/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof V1Endpoints>()),
  getDocument: vi.fn(),
  getQueuedJob: vi.fn(),
}));
vi.mock('../../lib/draft-store', () => ({ loadDraft: vi.fn() }));

type JobAnswer = Awaited<ReturnType<typeof getJob>>;

const v2Job = (id: string, status: 'Processing' | 'Processed' | 'Failed', error: unknown = null) =>
  ({
    job: {
      id,
      status,
      result_url: status === 'Processed' ? `/api/v2/inferences/inf-${id}` : null,
      error,
    },
  }) as unknown as JobAnswer;

const v1Document = (id: string) => ({
  api_request: {},
  document: { id, name: 'receipt.jpg', n_pages: 1, inference: { prediction: {} } },
});

const draft = (result: unknown): Draft => ({
  values: { total: 1 },
  removed: [],
  added: {},
  reviewed: [],
  result,
  updatedAt: '2026-01-05T09:00:00.000Z',
});

const problem = (status: number, code: string, title = 'Refused') =>
  new ProblemDetailsError(
    { status, code, title, detail: 'As sent.', errors: [] },
    { endpoint: 'POST /api/review/import' },
  );

const sent = () => vi.mocked(importDocument).mock.calls.map(([input]) => input);

beforeEach(() => {
  vi.mocked(importDocument).mockReset().mockResolvedValue(imported(true));
  vi.mocked(getJob).mockReset();
  vi.mocked(getExtractionResult).mockReset();
  vi.mocked(getDocument).mockReset();
  vi.mocked(getQueuedJob).mockReset();
  vi.mocked(loadDraft).mockReset().mockResolvedValue(null);
});

describe('importKeptJobs', () => {
  it('sends a v2 job with the result kept with its draft, and its file, without asking the service', async () => {
    vi.mocked(loadDraft).mockResolvedValue(draft(v2Answer('job-1')));
    const job = keptJob({ options: { alias: 'march' } });
    const report = await importKeptJobs([job]);

    expect(report).toEqual({ total: 1, imported: 1, alreadyThere: 0, skipped: [] });
    expect(getJob).not.toHaveBeenCalled();
    expect(sent()).toEqual([
      {
        metadata: {
          apiVersion: 'v2',
          model: V2_MODEL,
          fileName: 'invoice.pdf',
          alias: 'march',
          upstreamJobId: 'job-1',
          upstreamResultId: 'inf-job-1',
        },
        result: v2Answer('job-1'),
        file: job.file,
      },
    ]);
  });

  it('asks the service for a v2 job’s result when no draft kept it, and types a file read back untyped', async () => {
    vi.mocked(getJob).mockResolvedValue(v2Job('job-2', 'Processed'));
    vi.mocked(getExtractionResult).mockResolvedValue(v2Answer('job-2') as never);
    const report = await importKeptJobs([
      keptJob({ jobId: 'job-2', file: new Blob(['bytes']), mimeType: 'image/png', source: 'file' }),
    ]);

    expect(report.imported).toBe(1);
    expect(getJob).toHaveBeenCalledWith('job-2', expect.anything());
    expect(getExtractionResult).toHaveBeenCalledWith('/api/v2/inferences/inf-job-2', expect.anything());
    const [input] = sent();
    expect(input?.result).toEqual(v2Answer('job-2'));
    expect(input?.file?.type).toBe('image/png');
    expect(await input?.file?.text()).toBe('bytes');
  });

  it('sends a job sent by URL without a file, named after its URL when it has no name', async () => {
    vi.mocked(loadDraft).mockResolvedValue(draft(v2Answer('job-3')));
    await importKeptJobs([
      keptJob({
        jobId: 'job-3',
        file: null,
        filename: '',
        source: 'url',
        url: 'https://example.com/a/b%20c.pdf',
      }),
    ]);
    expect(sent()[0]).toMatchObject({ metadata: { fileName: 'b c.pdf' }, file: null });
  });

  it('fetches v1 results (a document, or a queued job’s), not the v2 restatement a v1 draft keeps', async () => {
    vi.mocked(loadDraft).mockResolvedValue(draft(v2Answer('restated')));
    vi.mocked(getDocument).mockResolvedValue(v1Document('doc-sync') as never);
    vi.mocked(getQueuedJob).mockResolvedValue({
      ...v1Document('doc-async'),
      job: { id: 'queue-1' },
    } as never);
    const report = await importKeptJobs([
      keptV1Job('sync', { jobId: 'doc-sync' }),
      keptV1Job('async', { jobId: 'queue-1' }),
    ]);

    expect(report.imported).toBe(2);
    const ref = { account: 'mindee', name: 'expense_receipts', version: '5' };
    expect(getDocument).toHaveBeenCalledWith(ref, 'doc-sync', expect.anything());
    expect(getQueuedJob).toHaveBeenCalledWith(ref, 'queue-1', expect.anything());
    expect(sent().map((input) => input.metadata)).toEqual([
      {
        apiVersion: 'v1',
        model: 'mindee/expense_receipts/v5',
        fileName: 'receipt.jpg',
        alias: null,
        upstreamJobId: 'doc-sync',
        upstreamResultId: 'doc-sync',
      },
      {
        apiVersion: 'v1',
        model: 'mindee/expense_receipts/v5',
        fileName: 'receipt.jpg',
        alias: null,
        upstreamJobId: 'queue-1',
        upstreamResultId: 'doc-async',
      },
    ]);
    expect(sent()[1]?.result).toMatchObject({ document: { id: 'doc-async' } });
  });

  it('skips what it cannot get, says why, and settles only what will not pass', async () => {
    vi.mocked(getJob).mockImplementation(async (id) => {
      if (id === 'failed') return v2Job(id, 'Failed', { detail: 'Unreadable document.' });
      if (id === 'running') return v2Job(id, 'Processing');
      if (id === 'gone') throw new ApiError('Not found', { endpoint: 'GET /api/v2/jobs/gone', status: 404 });
      if (id === 'offline') throw new NetworkError({ endpoint: 'GET /api/v2/jobs/offline' });
      return v2Job(id, 'Processed');
    });
    vi.mocked(getExtractionResult).mockImplementation(
      async (url) => v2Answer(url.split('-').at(-1) ?? '') as never,
    );
    vi.mocked(getQueuedJob).mockResolvedValue({
      api_request: {},
      job: { id: 'v1-failed', status: 'failed', error: { message: 'Bad file' } },
    } as never);
    vi.mocked(importDocument).mockImplementation(async ({ metadata }) => {
      if (metadata.upstreamJobId === 'refused') throw problem(422, '422-008');
      if (metadata.upstreamJobId === 'busy') throw problem(503, '503-001', 'Unavailable');
      return imported(metadata.upstreamJobId !== 'there');
    });
    const settled: string[] = [];
    const progress: string[] = [];
    const ids = ['ok', 'there', 'failed', 'running', 'gone', 'offline', 'refused', 'busy'];
    const report = await importKeptJobs(
      [...ids.map((jobId) => keptJob({ jobId })), keptV1Job('async', { jobId: 'v1-failed' })],
      {
        onSettled: (jobId) => settled.push(jobId),
        onProgress: ({ done, total }) => progress.push(`${done}/${total}`),
      },
    );

    expect(report).toMatchObject({ total: 9, imported: 1, alreadyThere: 1 });
    expect(report.skipped.map(({ jobId, reason }) => [jobId, reason])).toEqual([
      ['failed', 'job-failed'],
      ['running', 'unfinished'],
      ['gone', 'gone'],
      ['offline', 'unreachable'],
      ['refused', 'refused'],
      ['busy', 'unreachable'],
      ['v1-failed', 'job-failed'],
    ]);
    expect(report.skipped[0]?.detail).toBe('Unreadable document.');
    expect(report.skipped[4]?.detail).toMatch(/Refused/);
    expect(settled).toEqual(['ok', 'there', 'failed', 'gone', 'refused', 'v1-failed']);
    expect(progress).toEqual(['0/9', '1/9', '2/9', '3/9', '4/9', '5/9', '6/9', '7/9', '8/9', '9/9']);
    expect(describeSkips(report.skipped)).toBe(
      '7 skipped: 2 whose job failed upstream, 1 still processing (offered again later), 1 the service no longer has, 2 that could not be fetched or sent now (offered again later), 1 the server refused.',
    );
  });

  it('stops when aborted, throwing the signal’s reason', async () => {
    vi.mocked(loadDraft).mockImplementation(async (jobId) => draft(v2Answer(jobId)));
    const controller = new AbortController();
    vi.mocked(importDocument).mockImplementation(async () => {
      controller.abort(new Error('left the page'));
      return imported(true);
    });
    await expect(
      importKeptJobs([keptJob({ jobId: 'a' }), keptJob({ jobId: 'b' })], { signal: controller.signal }),
    ).rejects.toThrow('left the page');
    expect(importDocument).toHaveBeenCalledTimes(1);
  });

  it('says nothing of skips when there were none', () => {
    expect(describeSkips([])).toBeNull();
  });
});
