/**
 * The words of a job's page over real HTTP, on both engines (`GET /api/review/jobs/{v}/{job}/pages/{n}/words`):
 * the document kept for a v2 job found by its job id, a v1 prediction by its queued job's id or its
 * document's (a synchronous one), the latest kept copy when the store holds two; the same words as the
 * document's own route; a session needed; unknown jobs, versions, pages and documents without a kept
 * file are 404 `404-010`.
 */
import { Readable } from 'node:stream';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageWordsResponse } from '@extraction-review/contract/review/page-words';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { closeDocumentExtraction } from '@extraction-review/document-text/extract-document-text';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { mountReview } from './mount-review';

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);
const PASSWORD = 'correct horse battery staple';

async function invoice(total: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText('Total:', { x: 72, y: 300, size: 24, font });
  page.drawText(total, { x: 220, y: 300, size: 24, font });
  return Buffer.from(await pdf.save());
}

afterAll(async () => {
  await closeDocumentExtraction();
});

describe.each(ENGINES)('a job’s page words on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let cookie = '';
  let clock = T0;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview({ ...store.settings, clock: { now: () => clock } });
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    await review.operators.create(
      { name: 'Alice', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
      T0,
    );
    const signedIn = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { Origin: server.url, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Alice', password: PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  });
  afterAll(async () => {
    await server.close();
    await review.close();
    await store.cleanup();
  });

  /** A document as the upload recorder keeps it: its file under its id, tagged with its job. */
  async function kept(
    apiVersion: 'v1' | 'v2',
    upstreamJobId: string | null,
    file: Buffer | null,
    resultId?: string,
  ) {
    clock += 1000;
    const id = crypto.randomUUID();
    if (file) await review.files?.save(id, Readable.from([file]));
    await review.queue.addDocument(
      {
        id,
        apiVersion,
        modelKey: 'model-a',
        fileName: 'invoice.pdf',
        mimeType: 'application/pdf',
        fileKey: file ? id : null,
        upstreamJobId,
      },
      clock,
    );
    if (resultId !== undefined) {
      await review.queue.setResult(
        id,
        { json: '{"document":{}}', resultId, fieldsTotal: 1, fieldsToReview: 1 },
        clock,
      );
    }
    return id;
  }

  const get = (path: string, withSession = true) =>
    fetch(`${server.url}${path}`, { headers: withSession ? { Cookie: cookie } : {} });

  async function totalOf(path: string): Promise<string | undefined> {
    const response = await get(path);
    expect(response.status).toBe(200);
    const words = PageWordsResponse.parse(await response.json());
    expect(words.source).toBe('text-layer');
    return words.words.find((w) => w.text.includes('.'))?.text;
  }

  async function problem(response: Response, status: number, code: string) {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(ErrorResponse.parse(await response.json())).toMatchObject({ status, code });
  }

  it('finds a v2 job’s kept document by its job id, with the words of the document’s own route', async () => {
    const id = await kept('v2', 'job-v2-1', await invoice('1,234.56'));
    const byJob = await get('/api/review/jobs/v2/job-v2-1/pages/0/words');
    expect(byJob.status).toBe(200);
    const byDocument = await get(`/api/review/documents/${id}/pages/0/words`);
    expect(await byJob.json()).toEqual(await byDocument.json());
    // The same job id under the other version is another job.
    await problem(await get('/api/review/jobs/v1/job-v2-1/pages/0/words'), 404, '404-010');
  });

  it('finds a v1 prediction by its queued job’s id or by its document’s id', async () => {
    await kept('v1', 'queue-v1-1', await invoice('77.00'), 'doc-v1-1');
    expect(await totalOf('/api/review/jobs/v1/queue-v1-1/pages/0/words')).toBe('77.00');
    // A synchronous prediction has no queued job: its page is addressed by its document.
    await kept('v1', null, await invoice('88.00'), 'doc-v1-sync');
    expect(await totalOf('/api/review/jobs/v1/doc-v1-sync/pages/0/words')).toBe('88.00');
  });

  it('takes the latest document with a kept file when the store holds the job twice', async () => {
    await kept('v2', 'job-v2-twice', await invoice('10.00'));
    await kept('v2', 'job-v2-twice', await invoice('20.00'));
    // Imported later without its file: not the one read.
    await kept('v2', 'job-v2-twice', null);
    expect(await totalOf('/api/review/jobs/v2/job-v2-twice/pages/0/words')).toBe('20.00');
  });

  it('refuses without a session, and answers 404-010 for what it does not keep', async () => {
    expect((await get('/api/review/jobs/v2/job-v2-1/pages/0/words', false)).status).toBe(401);
    await problem(await get('/api/review/jobs/v2/no-such-job/pages/0/words'), 404, '404-010');
    await problem(await get('/api/review/jobs/v3/job-v2-1/pages/0/words'), 404, '404-010');
    await problem(await get('/api/review/jobs/v2/job-v2-1/pages/1/words'), 404, '404-010');
    await problem(await get('/api/review/jobs/v2/job-v2-1/pages/-1/words'), 404, '404-010');
    await kept('v2', 'job-by-url', null);
    await problem(await get('/api/review/jobs/v2/job-by-url/pages/0/words'), 404, '404-010');
  });
});
