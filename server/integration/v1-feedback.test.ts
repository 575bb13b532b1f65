/**
 * v1 feedback over real HTTP (PUT replaces, PATCH merges, GET is our extension), checked with the
 * browser app's schemas (packages/contract/src/v1/schemas.ts); then across a restart and through the app server's
 * /api/v1 proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  V1EnqueueResponse,
  V1ErrorResponse,
  V1FeedbackRequest,
  V1FeedbackResponse,
  V1PredictResponse,
} from '@extraction-review/contract/v1/schemas';
import { createApp } from '@extraction-review/app-server/create-app';
import {
  DEFAULT_MODELS_FILE,
  type ReferenceService,
} from '@extraction-review/reference/create-reference-service';
import { loadModelCatalog } from '@extraction-review/reference/models/model-catalog';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let invoiceId: string;
let purchaseOrderId: string;

const token = { Authorization: `Token ${TEST_API_KEY}` };
/** The seeded invoices v4 product's fields, sorted as the answer lists them. */
let invoiceFields: string[];

const pdfBase64 = async (): Promise<string> => {
  const pdf = await generatePdf([{ lines: [{ text: 'Invoice number: INV-5', x: 72, y: 700 }] }]);
  return Buffer.from(pdf.bytes).toString('base64');
};

async function predict(base: string, product: string, mode: 'predict' | 'predict_async'): Promise<string> {
  const response = await fetch(`${base}/v1/products/${product}/${mode}`, {
    method: 'POST',
    headers: { ...token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ document: await pdfBase64() }),
  });
  if (mode === 'predict') return V1PredictResponse.parse(await response.json()).document.id;
  const { job } = V1EnqueueResponse.parse(await response.json());
  const deadline = Date.now() + 30_000;
  for (;;) {
    const polled = await fetch(job.polling_url ?? '', { headers: token, redirect: 'manual' });
    if (polled.status === 302) return polled.headers.get('location')?.split('/').at(-1) ?? '';
    if (Date.now() > deadline) throw new Error('v1 job not done in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The body as bytes: fetch then sends no Content-Type, as the official client does. */
function send(
  method: 'PUT' | 'PATCH' | 'GET',
  documentId: string,
  body?: unknown,
  headers: Record<string, string> = token,
): Promise<Response> {
  return fetch(`${service.url}/v1/documents/${documentId}/feedback`, {
    method,
    headers,
    body:
      body === undefined
        ? undefined
        : new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)),
  });
}

async function feedbackOf(response: Response): Promise<Record<string, unknown>> {
  expect(response.status).toBe(200);
  const body = V1FeedbackResponse.parse(await response.json());
  expect(body.api_request).toMatchObject({
    error: {},
    resources: ['feedback'],
    status: 'success',
    status_code: 200,
  });
  expect(Object.keys(body.feedback)).toEqual(invoiceFields);
  expect(invoiceFields).toContain('total_amount');
  return body.feedback;
}

async function errorOf(response: Response, status: number): Promise<string | undefined> {
  expect(response.status).toBe(status);
  const { api_request } = V1ErrorResponse.parse(await response.json());
  expect(api_request).toMatchObject({ status: 'failure', status_code: status });
  return api_request.error.code;
}

beforeAll(async () => {
  const catalog = await loadModelCatalog(DEFAULT_MODELS_FILE);
  invoiceFields = (catalog.findProduct('mindee', 'invoices', '4')?.fields ?? []).map((f) => f.name).sort();
  data = await makeDataDir();
  service = await startTestService(data.dir);
  invoiceId = await predict(service.url, 'mindee/invoices/v4', 'predict');
  purchaseOrderId = await predict(service.url, 'acme-corp/purchase_orders/v1', 'predict_async');
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

describe('PUT, PATCH and GET /v1/documents/{id}/feedback', () => {
  it('GET before any feedback lists every field of the product as null', async () => {
    const feedback = await feedbackOf(await send('GET', invoiceId));
    expect(Object.values(feedback).every((value) => value === null)).toBe(true);
  });

  it('PUT without a Content-Type stores the fields sent, the others null', async () => {
    const request = V1FeedbackRequest.parse({
      feedback: {
        invoice_number: { value: 'INV-5' },
        total_amount: { value: 12.5 },
        line_items: [{ description: 'Paper', total_amount: 12.5 }],
      },
    });
    const feedback = await feedbackOf(await send('PUT', invoiceId, request));
    expect(feedback).toMatchObject({
      invoice_number: { value: 'INV-5' },
      total_amount: { value: 12.5 },
      line_items: [{ description: 'Paper', total_amount: 12.5 }],
      date: null,
    });
    expect(await feedbackOf(await send('GET', invoiceId))).toEqual(feedback);
  });

  it('PATCH merges field by field, and the same PATCH twice stores the same outcome', async () => {
    await send('PUT', invoiceId, {
      feedback: { invoice_number: { value: 'INV-5' }, total_amount: { value: 1 } },
    });
    const patch = { feedback: { total_amount: { value: 2 }, date: { value: '2025-03-14' } } };
    const once = await feedbackOf(await send('PATCH', invoiceId, patch));
    expect(once).toMatchObject({
      invoice_number: { value: 'INV-5' },
      total_amount: { value: 2 },
      date: { value: '2025-03-14' },
    });
    expect(await feedbackOf(await send('PATCH', invoiceId, patch))).toEqual(once);
    // A field sent as null is cleared.
    const cleared = await feedbackOf(await send('PATCH', invoiceId, { feedback: { date: null } }));
    expect(cleared['date']).toBeNull();
    expect(cleared['total_amount']).toEqual({ value: 2 });
  });

  it('PUT replaces what was stored', async () => {
    await send('PATCH', invoiceId, { feedback: { supplier_name: { value: 'ACME' } } });
    const feedback = await feedbackOf(
      await send('PUT', invoiceId, { feedback: { due_date: { value: '2025-04-01' } } }),
    );
    expect(feedback['due_date']).toEqual({ value: '2025-04-01' });
    expect(feedback['supplier_name']).toBeNull();
    expect(feedback['invoice_number']).toBeNull();
  });

  it('also accepts a JSON Content-Type', async () => {
    const response = await send(
      'PATCH',
      invoiceId,
      { feedback: { locale: { value: 'en' } } },
      {
        ...token,
        'Content-Type': 'application/json',
      },
    );
    expect((await feedbackOf(response))['locale']).toEqual({ value: 'en' });
  });
});

describe('feedback errors, in the v1 shape', () => {
  it('400 for an empty, malformed or unknown-field payload', async () => {
    for (const body of [
      '',
      'not json',
      { feedback: {} },
      {},
      { feedback: { total_amount: 3 } },
      { feedback: { nope: { value: 1 } } },
    ]) {
      expect(await errorOf(await send('PUT', invoiceId, body), 400)).toBe('400-003');
    }
    expect(await errorOf(await send('PATCH', invoiceId, { feedback: [] }), 400)).toBe('400-003');
  });

  it('401 for a missing or wrong token', async () => {
    const body = { feedback: { invoice_number: { value: 'X' } } };
    expect(await errorOf(await send('PUT', invoiceId, body, {}), 401)).toBe('401-008');
    expect(await errorOf(await send('PUT', invoiceId, body, { Authorization: 'Token wrong' }), 401)).toBe(
      '401-001',
    );
  });

  it('403 when the product has feedback disabled', async () => {
    const body = { feedback: { supplier_name: { value: 'ACME' } } };
    expect(await errorOf(await send('PUT', purchaseOrderId, body), 403)).toBe('403-002');
    expect(await errorOf(await send('GET', purchaseOrderId), 403)).toBe('403-002');
  });

  it('404 for an unknown or malformed document id', async () => {
    const body = { feedback: { invoice_number: { value: 'X' } } };
    expect(await errorOf(await send('PUT', '0b7f1c1e-1111-4111-8111-111111111111', body), 404)).toBe(
      '404-009',
    );
    expect(await errorOf(await send('PATCH', 'nope', body), 404)).toBe('404-009');
  });
});

describe('feedback across a restart and through the app proxy', () => {
  it('is still there after a restart', async () => {
    await send('PUT', invoiceId, { feedback: { invoice_number: { value: 'KEPT' } } });
    await service.close();
    service = await startTestService(data.dir);
    expect((await feedbackOf(await send('GET', invoiceId)))['invoice_number']).toEqual({ value: 'KEPT' });
  });

  it('PATCH and GET through /api/v1 with the key injected and the URL rewritten', async () => {
    const app = createApp({ upstream: { v1: { url: service.url, apiKey: TEST_API_KEY, embedded: true } } });
    const path = `/api/v1/documents/${invoiceId}/feedback`;
    const patched = await app.request(path, {
      method: 'PATCH',
      body: JSON.stringify({ feedback: { supplier_name: { value: 'Proxy Ltd' } } }),
    });
    expect(patched.status).toBe(200);
    const body = V1FeedbackResponse.parse(await patched.json());
    expect(body.api_request.url).toBe(path);
    expect(body.feedback).toMatchObject({
      invoice_number: { value: 'KEPT' },
      supplier_name: { value: 'Proxy Ltd' },
    });
    const got = V1FeedbackResponse.parse(await (await app.request(path)).json());
    expect(got.feedback).toEqual(body.feedback);
  });
});
