/**
 * v1 webhooks through the whole service over real HTTP: a `predict_async` job's end is POSTed to its
 * product's endpoints (models file `v1_products[].webhooks`), `{ document, job }` once completed and
 * `{ job }` with the error once failed, signed in both v1 headers; a flaky receiver gets retries; a
 * synchronous `predict` announces nothing. Bodies are checked with the browser's v1 schemas.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { V1Document, V1EnqueueResponse, V1Job } from '@extraction-review/contract/v1/schemas';
import { verifySignature } from '@extraction-review/server-kit/webhook-signature';
import { DEFAULT_MODELS_FILE, type ReferenceService } from '../create-reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  startReceiver,
  type ReceivedCall,
  type TestReceiver,
} from '@extraction-review/test-kit/reference/webhooks-receiver';

const HOOK_OK = '7c2f9a52-3c2d-4e8f-9a0b-1c2d3e4f5a70';
const HOOK_FLAKY = '7c2f9a52-3c2d-4e8f-9a0b-1c2d3e4f5a71';
const SECRET = 'v1-whsec-0123456789';

const Completed = z.strictObject({ document: V1Document, job: V1Job });
const Failed = z.strictObject({ job: V1Job });

let data: Awaited<ReturnType<typeof makeDataDir>>;
let okReceiver: TestReceiver;
let flakyReceiver: TestReceiver;
let modelsFile: string;

beforeAll(async () => {
  data = await makeDataDir();
  okReceiver = await startReceiver(SECRET, () => ({ status: 204 }));
  // Fails twice, then accepts: the delivery is retried with backoff.
  flakyReceiver = await startReceiver(SECRET, (n) => ({ status: n <= 2 ? 503 : 200 }));
  const seeded = JSON.parse(await readFile(DEFAULT_MODELS_FILE, 'utf8')) as {
    v1_products: { account: string; name: string }[];
  };
  const webhooks = {
    'mindee/invoices': [{ id: HOOK_OK, name: 'ok', url: `${okReceiver.url}/v1-hook`, secret: SECRET }],
    'acme-corp/purchase_orders': [
      { id: HOOK_FLAKY, name: 'flaky', url: `${flakyReceiver.url}/v1-hook`, secret: SECRET },
    ],
  } as Record<string, unknown[]>;
  const v1_products = seeded.v1_products.map((product) => ({
    ...product,
    webhooks: webhooks[`${product.account}/${product.name}`] ?? [],
  }));
  modelsFile = path.join(data.dir, 'models.json');
  await writeFile(modelsFile, JSON.stringify({ ...seeded, v1_products }));
});

afterAll(async () => {
  await okReceiver.close();
  await flakyReceiver.close();
  await data.remove();
});

const token = { Authorization: `Token ${TEST_API_KEY}`, 'Content-Type': 'application/json' };
const pdfBase64 = async (): Promise<string> => {
  const pdf = await generatePdf([{ lines: [{ text: 'Invoice number: INV-88', x: 72, y: 700 }] }]);
  return Buffer.from(pdf.bytes).toString('base64');
};

async function post(service: ReferenceService, product: string, mode: string): Promise<Response> {
  return fetch(`${service.url}/v1/products/${product}/${mode}`, {
    method: 'POST',
    headers: token,
    body: JSON.stringify({ document: await pdfBase64() }),
  });
}

async function callsFor(receiver: TestReceiver, count: number): Promise<ReceivedCall[]> {
  const deadline = Date.now() + 30_000;
  while (receiver.calls.length < count) {
    if (Date.now() > deadline) throw new Error(`${count} webhook calls expected in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return receiver.calls;
}

/** Both v1 headers carry the HMAC of the raw bytes, checked in constant time (verifySignature). */
function expectSigned(call: ReceivedCall): void {
  for (const header of ['x-service-hmac-signature', 'x-mindee-hmac-signature']) {
    const value = call.headers[header];
    expect(typeof value).toBe('string');
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(SECRET, call.body, value as string)).toBe(true);
    expect(verifySignature('another-secret', call.body, value as string)).toBe(false);
  }
  expect(call.headers['content-type']).toBe('application/json');
}

describe('v1 webhooks', () => {
  it('a completed predict_async job POSTs { document, job }, signed; predict announces nothing', async () => {
    const service = await startTestService(data.dir, {
      modelsFile,
      webhooks: { retry: { initialDelayMs: 5, maxDelayMs: 20 } },
    });
    try {
      const sync = await post(service, 'mindee/invoices/v4', 'predict');
      expect(sync.status).toBe(201);
      const enqueued = await post(service, 'mindee/invoices/v4', 'predict_async');
      const { job } = V1EnqueueResponse.parse(await enqueued.json());
      const [call, ...others] = await callsFor(okReceiver, 1);
      // Give a wrongly announced sync job the time to arrive too.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(others).toHaveLength(0);
      expect(call?.method).toBe('POST');
      expect(call?.path).toBe('/v1-hook');
      if (!call) throw new Error('no call');
      expectSigned(call);
      const body = Completed.parse(JSON.parse(call.body.toString('utf8')));
      expect(body.job).toMatchObject({ id: job.id, status: 'completed', error: {} });
      expect(body.document.inference.prediction['invoice_number']).toMatchObject({ value: 'INV-88' });
      // The same document the documents route answers.
      const location = `${service.url}/v1/products/mindee/invoices/v4/documents/${body.document.id}`;
      const fetched = (await (await fetch(location, { headers: token })).json()) as { document: unknown };
      expect(fetched.document).toEqual(JSON.parse(call.body.toString('utf8')).document);
    } finally {
      await service.close();
    }
  });

  it('retries a receiver that answers 503, and a failed job POSTs { job } with its error', async () => {
    // Every job times out at once: a deterministic failure.
    const service = await startTestService(data.dir, {
      modelsFile,
      processingTimeoutMs: 1,
      webhooks: { retry: { initialDelayMs: 5, maxDelayMs: 20 } },
    });
    try {
      const enqueued = await post(service, 'acme-corp/purchase_orders/v1', 'predict_async');
      const { job } = V1EnqueueResponse.parse(await enqueued.json());
      const calls = await callsFor(flakyReceiver, 3);
      expect(calls).toHaveLength(3);
      // The same signed bytes at every attempt.
      expect(new Set(calls.map((call) => call.body.toString('utf8'))).size).toBe(1);
      calls.forEach(expectSigned);
      const body = Failed.parse(JSON.parse(calls[0]?.body.toString('utf8') ?? ''));
      expect(body.job).toMatchObject({
        id: job.id,
        status: 'failed',
        error: { code: '500-003', message: 'Processing timed out' },
      });
    } finally {
      await service.close();
    }
  });
});
