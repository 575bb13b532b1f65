import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reviewKeys } from '../api/keys';
import type * as ReviewEndpoints from '../api/review/endpoints';
import { getReviewDocument, getSession } from '../api/review/endpoints';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { extractionResultQueryOptions, jobQueryOptions } from '../api/v2/queries';
import type * as V2Endpoints from '../api/v2/endpoints';
import { getExtractionResult, getJob } from '../api/v2/endpoints';
import { openDocumentAhead } from '../features/review/viewer/preload';
import { loadDocument, type StoredDocument } from '../lib/document-store';
import { startReviewData } from './review-data-early';
import { storedDocumentQueryOptions } from './stored-document-query';

vi.mock('../api/review/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof ReviewEndpoints>()),
  getSession: vi.fn(),
  getReviewDocument: vi.fn(),
}));
vi.mock('../api/v2/endpoints', async (importOriginal) => ({
  ...(await importOriginal<typeof V2Endpoints>()),
  getJob: vi.fn(),
  getExtractionResult: vi.fn(),
}));
vi.mock('../lib/document-store', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  loadDocument: vi.fn(),
}));
vi.mock('../features/review/viewer/preload', () => ({ openDocumentAhead: vi.fn(() => () => undefined) }));

const job = (
  JSON.parse(readFileSync(path.join(fixturesDir, 'v2/job/ok_processed_webhooks_ok.json'), 'utf8')) as {
    job: { id: string; result_url: string };
  }
).job;
const file = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
const result = JSON.parse(
  readFileSync(path.join(fixturesDir, 'v2/products/extraction/financial_document/complete.json'), 'utf8'),
) as unknown;
const stored = (settledJob: unknown, settledResult: unknown = null): StoredDocument =>
  ({
    jobId: job.id,
    file,
    filename: 'a.pdf',
    mimeType: 'application/pdf',
    settledJob,
    settledResult,
  }) as StoredDocument;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startReviewData', () => {
  beforeEach(() => {
    vi.mocked(getSession).mockResolvedValue({ csrfToken: 't' } as never);
    vi.mocked(getExtractionResult).mockResolvedValue({ inference: {} } as never);
  });
  afterEach(() => {
    vi.clearAllMocks();
    vi.unstubAllGlobals();
  });

  it('asks for nothing on an address that opens no review', () => {
    expect(startReviewData('/queue')).toBeUndefined();
    expect(startReviewData('/jobs/v1/abc')).toBeUndefined();
    expect(getSession).not.toHaveBeenCalled();
  });

  it('on a job kept finished: opens its document and asks for its result, not for the job', async () => {
    vi.mocked(loadDocument).mockResolvedValue(stored(job));
    const client = startReviewData(`/jobs/${job.id}`);
    await settle();
    expect(openDocumentAhead).toHaveBeenCalledWith(file, 'application/pdf');
    expect(getJob).not.toHaveBeenCalled();
    expect(getExtractionResult).toHaveBeenCalledWith(job.result_url, expect.anything());
    expect(client?.getQueryData(extractionResultQueryOptions(job.result_url).queryKey)).toBeDefined();
    expect(client?.getQueryData(storedDocumentQueryOptions(job.id).queryKey)).toEqual(stored(job));
    expect(getSession).toHaveBeenCalledTimes(1);
  });

  it('on a job kept finished with its result: asks for neither, the result is there with the document', async () => {
    vi.mocked(loadDocument).mockResolvedValue(stored(job, result));
    const client = startReviewData(`/jobs/${job.id}`);
    await settle();
    expect(openDocumentAhead).toHaveBeenCalledWith(file, 'application/pdf');
    expect(getJob).not.toHaveBeenCalled();
    expect(getExtractionResult).not.toHaveBeenCalled();
    expect(client?.getQueryData(extractionResultQueryOptions(job.result_url).queryKey)).toEqual(
      expect.objectContaining({ inference: expect.objectContaining({ id: expect.any(String) }) }),
    );
  });

  it('on a kept result that no longer reads as one: asks for the result again', async () => {
    vi.mocked(loadDocument).mockResolvedValue(stored(job, { inference: { id: 'old shape' } }));
    const client = startReviewData(`/jobs/${job.id}`);
    await settle();
    expect(getExtractionResult).toHaveBeenCalledWith(job.result_url, expect.anything());
    expect(client?.getQueryData(extractionResultQueryOptions(job.result_url).queryKey)).toEqual({
      inference: {},
    });
  });

  it('on a job not kept: asks for the job, then for its result', async () => {
    vi.mocked(loadDocument).mockResolvedValue(null);
    vi.mocked(getJob).mockResolvedValue({ job } as never);
    const client = startReviewData(`/jobs/${job.id}`);
    await settle();
    expect(openDocumentAhead).not.toHaveBeenCalled();
    expect(client?.getQueryData(jobQueryOptions(job.id).queryKey)).toEqual({ job });
    expect(getExtractionResult).toHaveBeenCalledWith(job.result_url, expect.anything());
  });

  it('on a queued document: asks for its file and the document together, and opens the file', async () => {
    const fetch = vi.fn(
      async () => new Response('%PDF-1.7', { headers: { 'Content-Type': 'application/pdf' } }),
    );
    vi.stubGlobal('fetch', fetch);
    vi.mocked(getReviewDocument).mockResolvedValue({ document: { id: 'D1' } } as never);
    const client = startReviewData('/review/D1');
    expect(fetch).toHaveBeenCalledWith('/api/review/documents/D1/file', expect.anything());
    expect(getReviewDocument).toHaveBeenCalledWith('D1', expect.anything());
    await vi.waitFor(() => expect(openDocumentAhead).toHaveBeenCalled());
    const kept = client?.getQueryData<{ file: Blob }>(reviewKeys.file('D1'));
    expect(kept?.file.size).toBe(8);
    expect(openDocumentAhead).toHaveBeenCalledWith(kept?.file, 'application/pdf');
    expect(client?.getQueryData(reviewKeys.document('D1'))).toEqual({ document: { id: 'D1' } });
  });

  it('keeps a refusal (nobody signed in) to itself', async () => {
    vi.mocked(loadDocument).mockRejectedValue(new Error('no IndexedDB'));
    vi.mocked(getSession).mockRejectedValue(new Error('offline'));
    expect(() => startReviewData('/jobs/J9')).not.toThrow();
    await settle();
    expect(openDocumentAhead).not.toHaveBeenCalled();
  });
});
