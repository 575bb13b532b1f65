/**
 * v1 jobs and documents survive a restart (SQLite), and the app server's /api/v1 proxy reaches the
 * reference service's /v1 with the key as `Token`, rewriting the absolute URLs it writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  V1DocumentResponse,
  V1EnqueueResponse,
  V1PredictResponse,
} from '@extraction-review/contract/v1/schemas';
import { createApp } from '@extraction-review/app-server/create-app';
import type { ReferenceService } from '@extraction-review/reference/create-reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

let data: Awaited<ReturnType<typeof makeDataDir>>;
beforeAll(async () => {
  data = await makeDataDir();
});
afterAll(async () => {
  await data.remove();
});

const token = { Authorization: `Token ${TEST_API_KEY}`, 'Content-Type': 'application/json' };
const pdfBase64 = async (): Promise<string> => {
  const pdf = await generatePdf([{ lines: [{ text: 'Invoice number: INV-77', x: 72, y: 700 }] }]);
  return Buffer.from(pdf.bytes).toString('base64');
};

async function waitForLocation(
  get: (url: string) => Response | Promise<Response>,
  url: string,
): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await get(url);
    if (response.status === 302) return response.headers.get('location') ?? '';
    expect(response.status).toBe(200);
    if (Date.now() > deadline) throw new Error('v1 job not done in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('v1 across a restart', () => {
  it('a completed document and a job queued at shutdown are both there after a restart', async () => {
    let service: ReferenceService = await startTestService(data.dir);
    const predicted = await fetch(`${service.url}/v1/products/mindee/invoices/v4/predict`, {
      method: 'POST',
      headers: token,
      body: JSON.stringify({ document: await pdfBase64() }),
    });
    const { document } = V1PredictResponse.parse(await predicted.json());
    // Queued, then the service stops before (or while) processing it.
    const queued = await fetch(`${service.url}/v1/products/mindee/invoices/v4/predict_async`, {
      method: 'POST',
      headers: token,
      body: JSON.stringify({ document: await pdfBase64() }),
    });
    const { job } = V1EnqueueResponse.parse(await queued.json());
    await service.close();

    service = await startTestService(data.dir);
    try {
      const get = (url: string) => fetch(url, { headers: token, redirect: 'manual' });
      const again = await get(`${service.url}/v1/products/mindee/invoices/v4/documents/${document.id}`);
      expect(again.status).toBe(200);
      expect(V1DocumentResponse.parse(await again.json()).document).toEqual(document);
      const location = await waitForLocation(get, `${service.url}/v1/documents/queue/${job.id}`);
      expect((await get(location)).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});

describe('the app server /api/v1 proxy to the reference service', () => {
  it('enqueues, polls and fetches the document through /api/v1 with rewritten URLs', async () => {
    const service = await startTestService(data.dir);
    try {
      const app = createApp({
        upstream: { v1: { url: service.url, apiKey: TEST_API_KEY, embedded: true } },
      });
      const enqueued = await app.request('/api/v1/products/mindee/invoices/v4/predict_async', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ document: await pdfBase64() }),
      });
      expect(enqueued.status).toBe(202);
      const { api_request, job } = V1EnqueueResponse.parse(await enqueued.json());
      expect(api_request.url).toBe('/api/v1/products/mindee/invoices/v4/predict_async');
      expect(job.polling_url).toBe(`/api/v1/documents/queue/${job.id}`);

      const get = (url: string) => app.request(url, { redirect: 'manual' });
      const location = await waitForLocation(get, job.polling_url ?? '');
      expect(location).toMatch(/^\/api\/v1\/products\/mindee\/invoices\/v4\/documents\/[0-9a-f-]{36}$/);
      const result = await get(location);
      expect(result.status).toBe(200);
      const body = V1DocumentResponse.parse(await result.json());
      expect(body.api_request.url).toBe(location);
      expect(body.document.inference.prediction['invoice_number']).toMatchObject({ value: 'INV-77' });
    } finally {
      await service.close();
    }
  });
});
