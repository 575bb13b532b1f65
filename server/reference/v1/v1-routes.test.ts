/**
 * The /v1 routes over real HTTP against the running reference service, with documents drawn in the
 * test; every body is checked with the browser app's v1 schemas (packages/contract/src/v1/schemas.ts), and nothing
 * the service writes may be a key those schemas drop.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  V1DocumentResponse,
  V1EnqueueResponse,
  V1ErrorResponse,
  V1JobResponse,
  V1PredictResponse,
} from '@extraction-review/contract/v1/schemas';
import { V1ProductsResponse } from '@extraction-review/contract/v1/products';
import type { ReferenceService } from '../create-reference-service';
import { rotateGrey } from '@extraction-review/document-text/ocr/grey-image';
import { drawTextPicture } from '@extraction-review/test-kit/reference/documents-images';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import { expectContract } from '@extraction-review/test-kit/reference/contract';
import { manualClock } from '@extraction-review/test-kit/manual-clock';
import {
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

/** The service's clock stands at this time: its jobs are issued, started and finished then. */
const T0 = Date.UTC(2026, 10, 25, 9, 0, 0, 500);

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir, { clock: manualClock(T0) });
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

// The v1 bodies against the app's v1 schemas, with the contract check of the v2 tests.
const conforms = expectContract;

const token = { Authorization: `Token ${TEST_API_KEY}` };
const invoicePdf = () =>
  generatePdf([
    {
      lines: [
        { text: 'ACME Supplies Ltd', x: 72, y: 760, size: 16 },
        { text: 'INVOICE', x: 72, y: 720, size: 14 },
        { text: 'Invoice number: INV-2041', x: 72, y: 690 },
        { text: 'Date: 2025-03-14', x: 72, y: 670 },
        { text: 'Total: 1,234.50', x: 72, y: 600 },
      ],
    },
  ]);

function postFile(path: string, bytes: Uint8Array, name = 'invoice.pdf', headers = token): Promise<Response> {
  const form = new FormData();
  form.set('document', new Blob([new Uint8Array(bytes)]), name);
  return fetch(`${service.url}/v1/products/${path}`, { method: 'POST', headers, body: form });
}

function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(`${service.url}/v1/products/${path}`, {
    method: 'POST',
    headers: { ...token, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const get = (url: string): Promise<Response> => fetch(url, { headers: token, redirect: 'manual' });

async function pollUntilDone(pollingUrl: string): Promise<Response> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await get(pollingUrl);
    if (response.status !== 200) return response;
    const { job } = conforms(V1JobResponse, await response.json());
    if (job.status === 'failed') throw new Error(`job failed: ${JSON.stringify(job.error)}`);
    expect(['waiting', 'processing']).toContain(job.status);
    if (Date.now() > deadline) throw new Error('job not done in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /v1/products/mindee/invoices/v4/predict', () => {
  it('answers 201 with the document: v1 fields with numeric confidence and normalised polygons', async () => {
    const pdf = await invoicePdf();
    const response = await postFile('mindee/invoices/v4/predict', pdf.bytes);
    expect(response.status).toBe(201);
    const body = (await response.json()) as unknown;
    const { api_request, document } = conforms(V1PredictResponse, body);
    expect(api_request).toEqual({
      error: {},
      resources: ['document'],
      status: 'success',
      status_code: 201,
      url: `${service.url}/v1/products/mindee/invoices/v4/predict`,
    });
    expect(document).toMatchObject({ name: 'invoice.pdf', n_pages: 1 });
    const { inference } = document;
    expect(inference.is_rotation_applied).toBe(true);
    expect(inference.product).toEqual({
      name: 'mindee/invoices',
      version: '4.11',
      type: 'standard',
      features: expect.arrayContaining(['invoice_number', 'total_amount', 'line_items']) as unknown,
    });
    expect(inference.pages).toHaveLength(1);
    expect(inference.pages[0]?.orientation.value).toBe(0);
    const number = inference.prediction['invoice_number'];
    if (!number || Array.isArray(number)) throw new Error('invoice_number should be one field');
    expect(number.value).toBe('INV-2041');
    expect(number.confidence).toBeGreaterThan(0.5);
    expect(number.page_id).toBe(0);
    const expected = pdf.boxOf(0, 'Invoice number: INV-2041', 'INV-2041');
    const [x0, y0] = number.polygon?.[0] ?? [NaN, NaN];
    expect(x0).toBeCloseTo(expected.x0, 1);
    expect(y0).toBeCloseTo(expected.y0, 1);
    expect(inference.prediction['total_amount']).toMatchObject({ value: 1234.5 });
    // Recorded bodies carry timestamps with +00:00, never Z (API-FACTS v1); the service's clock's.
    expect((body as { document: { inference: { started_at: string } } }).document.inference.started_at).toBe(
      '2026-11-25T09:00:00.500+00:00',
    );
    // The page holds the fields found on it.
    expect(inference.pages[0]?.prediction['invoice_number']).toMatchObject({ value: 'INV-2041' });
  });

  it('an async-only product answers 403 in the v1 shape', async () => {
    const response = await postFile('acme-corp/purchase_orders/v1/predict', (await invoicePdf()).bytes);
    expect(response.status).toBe(403);
    const { api_request } = conforms(V1ErrorResponse, await response.json());
    expect(api_request).toMatchObject({
      status: 'failure',
      status_code: 403,
      resources: [],
      error: { code: '403-001', message: 'This product does not support synchronous mode' },
    });
  });
});

describe('predict_async, the queue and the document', () => {
  it('JSON base64 with the version written without v: 202 waiting, polls, 302 to the document', async () => {
    const pdf = await invoicePdf();
    const response = await postJson('mindee/expense_receipts/5/predict_async', {
      document: Buffer.from(pdf.bytes).toString('base64'),
    });
    expect(response.status).toBe(202);
    const { api_request, job } = conforms(V1EnqueueResponse, await response.json());
    expect(api_request).toMatchObject({ resources: ['job'], status_code: 202, error: {} });
    expect(job).toMatchObject({ status: 'waiting', available_at: null, error: {} });
    expect(job.polling_url).toBe(`${service.url}/v1/documents/queue/${job.id}`);

    const done = await pollUntilDone(job.polling_url ?? '');
    expect(done.status).toBe(302);
    const location = done.headers.get('location') ?? '';
    expect(location).toMatch(
      new RegExp(`^${service.url}/v1/products/mindee/expense_receipts/v5/documents/[0-9a-f-]{36}$`),
    );
    // The product-scoped queue route says the same.
    const scoped = await get(
      `${service.url}/v1/products/mindee/expense_receipts/v5/documents/queue/${job.id}`,
    );
    expect(scoped.status).toBe(302);
    expect(scoped.headers.get('location')).toBe(location);

    const documentResponse = await get(location);
    expect(documentResponse.status).toBe(200);
    const result = conforms(V1DocumentResponse, await documentResponse.json());
    expect(result.api_request.resources).toEqual(['document', 'job']);
    expect(result.job).toMatchObject({ id: job.id, status: 'completed' });
    expect(result.job?.available_at).not.toBeNull();
    expect(result.document.id).toBe(location.split('/').at(-1));
    expect(result.document.inference.product).toMatchObject({
      name: 'mindee/expense_receipts',
      version: '5.3',
    });
    expect(Object.keys(result.document.inference.prediction)).toEqual(
      expect.arrayContaining(['tip', 'category', 'receipt_number', 'total_amount']),
    );
    expect(result.document.inference.prediction['total_amount']).toMatchObject({ value: 1234.5 });

    // Under another product the document is not found.
    const elsewhere = await get(location.replace('expense_receipts/v5', 'invoices/v4'));
    expect(elsewhere.status).toBe(404);
    conforms(V1ErrorResponse, await elsewhere.json());
  });

  it('a custom product under another account works asynchronously', async () => {
    const response = await postFile('acme-corp/purchase_orders/v1/predict_async', (await invoicePdf()).bytes);
    expect(response.status).toBe(202);
    const { job } = conforms(V1EnqueueResponse, await response.json());
    const done = await pollUntilDone(job.polling_url ?? '');
    expect(done.status).toBe(302);
    const result = conforms(V1DocumentResponse, await (await get(done.headers.get('location') ?? '')).json());
    expect(result.document.inference.product).toMatchObject({
      name: 'acme-corp/purchase_orders',
      type: 'custom',
    });
    expect(Object.keys(result.document.inference.prediction).sort()).toEqual(
      ['line_items', 'order_date', 'po_number', 'supplier_name', 'total_amount'].sort(),
    );
  });

  it('detects a photo turned on its side, reads it upright and writes polygons upright', async () => {
    const lines = [
      { text: 'Invoice number: INV-2041', x: 40, y: 760, size: 14 },
      ...Array.from({ length: 12 }, (_, i) => ({
        text: `Line ${i + 1}: the quick brown fox jumps over the lazy dog`,
        x: 40,
        y: 720 - i * 40,
        size: 14,
      })),
    ];
    const { image, boxOf } = await drawTextPicture({ lines }, 100);
    const turned = await rotateGrey(image, 90);
    const png = await sharp(Buffer.from(turned.data), {
      raw: { width: turned.width, height: turned.height, channels: 1 },
    })
      .png()
      .toBuffer();
    const response = await postFile('mindee/invoices/v4/predict', png, 'turned.png');
    expect(response.status).toBe(201);
    const { document } = conforms(V1PredictResponse, await response.json());
    // Turned 90° clockwise, it takes 270° more to be upright.
    expect(document.inference.pages[0]?.orientation.value).toBe(270);
    expect(document.inference.is_rotation_applied).toBe(true);
    // Read from the page turned upright: the text is right, and its box is where it is upright.
    const number = document.inference.prediction['invoice_number'];
    if (!number || Array.isArray(number)) throw new Error('invoice_number should be one field');
    expect(number.value).toBe('INV-2041');
    const expected = boxOf(0, 'Invoice number: INV-2041', 'INV-2041');
    const xs = (number.polygon ?? []).map(([x]) => x);
    const ys = (number.polygon ?? []).map(([, y]) => y);
    expect(Math.abs(Math.min(...xs) - expected.x0)).toBeLessThan(0.03);
    expect(Math.abs(Math.min(...ys) - expected.y0)).toBeLessThan(0.03);
    expect(Math.abs(Math.max(...xs) - expected.x1)).toBeLessThan(0.03);
    expect(Math.abs(Math.max(...ys) - expected.y1)).toBeLessThan(0.03);
  });
});

describe('v1 errors', () => {
  it('401 without a token and with the bare key, in the v1 shape', async () => {
    const pdf = await invoicePdf();
    for (const headers of [{}, { Authorization: TEST_API_KEY }]) {
      const response = await postFile(
        'mindee/invoices/v4/predict',
        pdf.bytes,
        'invoice.pdf',
        headers as typeof token,
      );
      expect(response.status).toBe(401);
      const { api_request } = conforms(V1ErrorResponse, await response.json());
      expect(api_request).toMatchObject({ status: 'failure', status_code: 401, resources: [] });
    }
  });

  it('404 for an unknown product, job or document', async () => {
    const unknownProduct = await postJson('mindee/nothing/v1/predict_async', {
      document: 'aGVsbG8gd29ybGQ=',
    });
    expect(unknownProduct.status).toBe(404);
    expect(conforms(V1ErrorResponse, await unknownProduct.json()).api_request.error).toMatchObject({
      code: '404-008',
    });
    const id = '0b7f6d3e-1c2a-4d5e-8f90-123456789abc';
    for (const url of [
      `${service.url}/v1/documents/queue/${id}`,
      `${service.url}/v1/products/mindee/invoices/v4/documents/${id}`,
    ]) {
      const response = await get(url);
      expect(response.status).toBe(404);
      conforms(V1ErrorResponse, await response.json());
    }
  });

  it('400 for a request without a usable document', async () => {
    for (const body of [{}, { document: 'http://example.com/a.pdf' }, { document: '%%%' }]) {
      const response = await postJson('mindee/invoices/v4/predict_async', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(conforms(V1ErrorResponse, await response.json()).api_request.error).toMatchObject({
        code: '400-002',
      });
    }
  });

  it('422 for a file that is not a document', async () => {
    const response = await postFile(
      'mindee/invoices/v4/predict_async',
      new TextEncoder().encode('plain text'),
    );
    expect(response.status).toBe(422);
    expect(conforms(V1ErrorResponse, await response.json()).api_request.status_code).toBe(422);
  });
});

describe('GET /v1/extensions/products (extension)', () => {
  it('lists the seeded products with their modes and feedback', async () => {
    const response = await fetch(`${service.url}/v1/extensions/products`, { headers: token });
    expect(response.status).toBe(200);
    const body = conforms(V1ProductsResponse, await response.json());
    expect(body.products).toEqual(
      expect.arrayContaining([
        { account: 'mindee', name: 'invoices', version: '4', sync: true, async: true, feedback: true },
        {
          account: 'acme-corp',
          name: 'purchase_orders',
          version: '1',
          sync: false,
          async: true,
          feedback: false,
        },
      ]),
    );
  });

  it('asks for the token, as every v1 route', async () => {
    expect((await fetch(`${service.url}/v1/extensions/products`)).status).toBe(401);
  });
});
