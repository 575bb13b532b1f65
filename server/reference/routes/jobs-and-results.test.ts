import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import {
  expectExtractionResponse,
  expectJobResponse,
  expectProblem,
} from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
beforeAll(async () => {
  data = await makeDataDir();
  // One job at a time, so a job queued behind a long one is reliably still Processing.
  service = await startTestService(data.dir, { concurrency: 1 });
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

async function enqueuePdf(bytes: Uint8Array, fields: Record<string, string> = {}) {
  const response = await enqueue(service, {
    modelId: INVOICE_MODEL_ID,
    file: { bytes, name: 'doc.pdf' },
    fields,
  });
  return expectJobResponse(await response.json()).job;
}

/** Many pages (few lines each): long enough in the extraction thread to keep the queue busy while a test looks at the next job. */
const longPdf = () =>
  generatePdf(
    Array.from({ length: 150 }, (_, i) => ({
      lines: Array.from({ length: 2 }, (_, j) => ({
        text: `Page ${i + 1} line ${j + 1} lorem ipsum dolor`,
        x: 72,
        y: 750 - j * 16,
      })),
    })),
  );

describe('GET /v2/jobs/{job_id}', () => {
  it('answers 200 while Processing, 302 with Location and the job once Processed, 200 with redirect=false', async () => {
    const busy = await enqueuePdf((await longPdf()).bytes);
    const invoice = await generatePdf([{ lines: [{ text: 'Total: 12.00', x: 72, y: 700 }] }]);
    const queued = await enqueuePdf(invoice.bytes, { alias: 'queued' });

    const processing = await get(queued.polling_url);
    expect(processing.status).toBe(200);
    expect(processing.headers.get('cache-control')).toBe('no-store');
    const { job: whileProcessing } = expectJobResponse(await processing.json());
    expect(whileProcessing).toMatchObject({
      status: 'Processing',
      completed_at: null,
      result_url: null,
      error: null,
    });

    const done = await waitForJob(service, queued.id, 60_000);
    expect(done.status).toBe('Processed');
    expect(done.result_url).toMatch(
      new RegExp(`^${service.url}/v2/products/extraction/results/[0-9a-f-]{36}$`),
    );
    expect(Date.parse(`${done.completed_at}Z`)).toBeGreaterThanOrEqual(Date.parse(`${done.created_at}Z`));

    const redirected = await get(queued.polling_url);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe(done.result_url);
    expect(redirected.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await redirected.json()) as { job: unknown };
    expectJobResponse(body);
    expect(body).toEqual({ job: done });

    for (const query of ['?redirect=false', '?redirect=FALSE', '?redirect=0']) {
      const direct = await get(`${queued.polling_url}${query}`);
      expect(direct.status, query).toBe(200);
      expect(await direct.json()).toEqual({ job: done });
    }
    expect((await get(`${queued.polling_url}?redirect=true`)).status).toBe(302);

    // Following the redirect lands on the result; ids line up.
    const result = await get(redirected.headers.get('location') ?? '');
    const { inference } = expectExtractionResponse(await result.json());
    expect(inference.job).toEqual({ id: queued.id });
    expect(inference.file.alias).toBe('queued');
    expect(done.result_url).toBe(`${service.url}/v2/products/extraction/results/${inference.id}`);

    expect((await waitForJob(service, busy.id, 60_000)).status).toBe('Processed');
  });

  it('answers 404 for an unknown job and 422 for a malformed id or redirect value', async () => {
    const unknown = await get(`${service.url}/v2/jobs/0f8fad5b-d9cb-469f-a165-70867728950e`);
    expect(unknown.status).toBe(404);
    expect(expectProblem(await unknown.json())).toMatchObject({
      status: 404,
      code: '404-001',
      title: 'Job not found',
    });

    const malformed = await get(`${service.url}/v2/jobs/not-a-uuid`);
    expect(malformed.status).toBe(422);
    expect(expectProblem(await malformed.json())).toMatchObject({
      status: 422,
      code: '422-004',
      errors: [{ pointer: null, detail: 'job_id must be a valid UUID format' }],
    });

    const job = await enqueuePdf((await generatePdf([{ lines: [{ text: 'x', x: 72, y: 700 }] }])).bytes);
    const badRedirect = await get(`${job.polling_url}?redirect=maybe`);
    expect(badRedirect.status).toBe(422);
    expect(expectProblem(await badRedirect.json()).code).toBe('422-001');
  });

  it('finds a job whatever the case of its id', async () => {
    const job = await enqueuePdf((await generatePdf([{ lines: [{ text: 'x', x: 72, y: 700 }] }])).bytes);
    const response = await get(`${service.url}/v2/jobs/${job.id.toUpperCase()}?redirect=false`);
    expect(response.status).toBe(200);
  });
});

describe('GET /v2/products/extraction/results/{inference_id}', () => {
  it('answers 404 for an unknown inference and 422 for a malformed id', async () => {
    const unknown = await get(
      `${service.url}/v2/products/extraction/results/0f8fad5b-d9cb-469f-a165-70867728950e`,
    );
    expect(unknown.status).toBe(404);
    expect(expectProblem(await unknown.json())).toMatchObject({
      code: '404-002',
      title: 'Inference not found',
    });

    const malformed = await get(`${service.url}/v2/products/extraction/results/123`);
    expect(malformed.status).toBe(422);
    expect(expectProblem(await malformed.json())).toMatchObject({ code: '422-004' });
  });

  it('does not answer a job id as an inference id', async () => {
    const job = await enqueuePdf(
      (await generatePdf([{ lines: [{ text: 'Total: 1', x: 72, y: 700 }] }])).bytes,
    );
    await waitForJob(service, job.id, 60_000);
    expect((await get(`${service.url}/v2/products/extraction/results/${job.id}`)).status).toBe(404);
  });
});

describe('processing time-out', () => {
  it('fails a job that takes longer than the time-out', async () => {
    const other = await makeDataDir();
    const impatient = await startTestService(other.dir, { processingTimeoutMs: 1 });
    try {
      const response = await enqueue(impatient, {
        modelId: INVOICE_MODEL_ID,
        file: { bytes: (await longPdf()).bytes, name: 'long.pdf' },
      });
      const { job } = expectJobResponse(await response.json());
      const done = await waitForJob(impatient, job.id, 60_000);
      expect(done.status).toBe('Failed');
      expect(done.error).toMatchObject({
        status: 500,
        code: '500-003',
        title: 'Processing timed out',
        detail: 'Processing did not finish within 1 ms.',
      });
      expect(done.completed_at).not.toBeNull();
      expect(done.result_url).toBeNull();
    } finally {
      await impatient.close();
      await other.remove();
    }
  });
});
