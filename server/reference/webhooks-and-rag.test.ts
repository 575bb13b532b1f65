/**
 * Webhooks and RAG through the whole service over real HTTP: enqueue with `webhook_ids`, a receiver
 * that checks the signature, `job.webhooks` as it evolves; a corrected result stored as a validated
 * document (extension endpoint), then retrieved and applied to a new document of the same template.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobJson } from '@extraction-review/document-text/api-types';
import { DEFAULT_MODELS_FILE, type ReferenceService } from './create-reference-service';
import { expectExtractionResponse, expectJobResponse } from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import { startReceiver, type TestReceiver } from '@extraction-review/test-kit/reference/webhooks-receiver';

const HOOK_OK = '6b1f9a52-3c2d-4e8f-9a0b-1c2d3e4f5a60';
const HOOK_FLAKY = '6b1f9a52-3c2d-4e8f-9a0b-1c2d3e4f5a61';
const SECRET = 'whsec-test-0123456789';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let okReceiver: TestReceiver;
let flakyReceiver: TestReceiver;

beforeAll(async () => {
  data = await makeDataDir();
  okReceiver = await startReceiver(SECRET, () => ({ status: 204 }));
  // Fails twice, then accepts: the delivery is retried with backoff.
  flakyReceiver = await startReceiver(SECRET, (n) => ({ status: n <= 2 ? 503 : 200 }));
  const seeded = JSON.parse(await readFile(DEFAULT_MODELS_FILE, 'utf8')) as {
    models: { id: string; webhooks?: unknown[] }[];
  };
  const models = seeded.models.map((model) =>
    model.id === INVOICE_MODEL_ID
      ? {
          ...model,
          webhooks: [
            { id: HOOK_OK, name: 'ok', url: `${okReceiver.url}/hooks/v2`, secret: SECRET },
            { id: HOOK_FLAKY, name: 'flaky', url: `${flakyReceiver.url}/hooks/v2`, secret: SECRET },
          ],
        }
      : model,
  );
  const modelsFile = path.join(data.dir, 'models.json');
  await writeFile(modelsFile, JSON.stringify({ ...seeded, models }));
  service = await startTestService(data.dir, {
    modelsFile,
    webhooks: { retry: { initialDelayMs: 5, maxDelayMs: 20 } },
  });
});

afterAll(async () => {
  await service.close();
  await okReceiver.close();
  await flakyReceiver.close();
  await data.remove();
});

function invoiceLines(values: { number: string; date: string; total: string; supplier: string }) {
  return [
    { text: values.supplier, x: 72, y: 740, size: 16 },
    { text: `Invoice number: ${values.number}`, x: 72, y: 690 },
    { text: `Date: ${values.date}`, x: 72, y: 670 },
    { text: 'Bill to: Jessie Horne, 4312 Wood Road, New York', x: 72, y: 640 },
    { text: 'Description Quantity Amount', x: 72, y: 600 },
    { text: 'Brake cables 1 100.00', x: 72, y: 580 },
    { text: 'Pedal arms 2 50.00', x: 72, y: 560 },
    { text: `Total: ${values.total}`, x: 72, y: 500 },
  ];
}

async function process(
  values: Parameters<typeof invoiceLines>[0],
  fields: Record<string, string> = {},
): Promise<JobJson> {
  const pdf = await generatePdf([{ lines: invoiceLines(values) }]);
  const response = await enqueue(service, {
    modelId: INVOICE_MODEL_ID,
    file: { bytes: pdf.bytes, name: `${values.number}.pdf` },
    fields,
  });
  expect(response.status).toBe(202);
  const { job } = expectJobResponse(await response.json());
  return waitForJob(service, job.id);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('webhooks', () => {
  it('calls each listed endpoint with the signed result, and records the outcome in job.webhooks', async () => {
    const job = await process(
      { number: 'INV-7001', date: '2024-05-02', total: '150.00', supplier: 'ACME Supplies Ltd' },
      { webhook_ids: `${HOOK_OK},${HOOK_FLAKY}` },
    );
    expect(job.status).toBe('Processed');

    const readJob = async () =>
      expectJobResponse(await (await get(`${service.url}/v2/jobs/${job.id}?redirect=false`)).json()).job;
    const final = await until(readJob, (j) => j.webhooks.every((w) => w.status !== 'Processing'));
    const byId = new Map(final.webhooks.map((w) => [w.id, w]));
    expect(byId.get(HOOK_OK)).toMatchObject({ status: 'Processed', attempts_count: 1, error: null });
    expect(byId.get(HOOK_FLAKY)).toMatchObject({ status: 'Processed', attempts_count: 3, error: null });

    // The body is the compact ExtractionResponse, the same as the result URL answers, and it is signed.
    const result = await (await get(job.result_url ?? '')).text();
    const [call] = okReceiver.calls;
    expect(call?.signatureValid).toBe(true);
    expect(call?.headers['content-type']).toMatch(/^application\/json/);
    expect(call?.body.toString('utf8')).toBe(JSON.stringify(JSON.parse(result)));
    expect(flakyReceiver.calls.every((c) => c.signatureValid)).toBe(true);
  });

  it('refuses a webhook id the model does not have', async () => {
    const pdf = await generatePdf([
      { lines: invoiceLines({ number: 'X', date: '2024-01-01', total: '1', supplier: 'S' }) },
    ]);
    const response = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: pdf.bytes, name: 'x.pdf' },
      fields: { webhook_ids: '00000000-0000-4000-8000-000000000000' },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: '422-001',
      errors: [{ pointer: expect.stringMatching(/^#\/webhook_ids/) }],
    });
  });
});

describe('RAG', () => {
  it('retrieves a validated document of the same template and applies what the new text supports', async () => {
    const first = await process({
      number: 'INV-8001',
      date: '2024-06-01',
      total: '150.00',
      supplier: 'Globex Corporation',
    });
    const firstResult = expectExtractionResponse(await (await get(first.result_url ?? '')).json());

    // An operator corrects the supplier's name and stores the result as a validated document.
    const corrected = structuredClone(firstResult.inference.result.fields);
    corrected['supplier_name'] = { value: 'Globex Corporation', confidence: 'Certain', locations: [] };
    const stored = await fetch(`${service.url}/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ inference_id: firstResult.inference.id, fields: corrected }),
    });
    expect(stored.status).toBe(201);
    const {
      document: { id: documentId },
    } = (await stored.json()) as { document: { id: string } };

    // A new invoice of the same supplier, with RAG on: the document is retrieved and the supplier
    // name, present in the new text, is taken from it.
    const second = await process(
      { number: 'INV-8002', date: '2024-07-15', total: '275.50', supplier: 'Globex Corporation' },
      { rag: 'true' },
    );
    const { inference } = expectExtractionResponse(await (await get(second.result_url ?? '')).json());
    expect(inference.active_options.rag).toBe(true);
    expect(inference.result.rag).toEqual({ retrieved_document_id: documentId });
    expect(inference.result.fields['supplier_name']).toMatchObject({ value: 'Globex Corporation' });
    // Values that differ from one invoice to the next are still read from the new document.
    expect(inference.result.fields['invoice_number']).toMatchObject({ value: 'INV-8002' });
    expect(inference.result.fields['total_amount']).toMatchObject({ value: 275.5 });

    // Without RAG, nothing is retrieved and `rag` is null.
    const third = await process({
      number: 'INV-8003',
      date: '2024-08-01',
      total: '10.00',
      supplier: 'Globex Corporation',
    });
    const plain = expectExtractionResponse(await (await get(third.result_url ?? '')).json());
    expect(plain.inference.result.rag).toBeNull();
  });

  it('reports no document when nothing is similar enough', async () => {
    const pdf = await generatePdf([
      { lines: [{ text: 'Dear Sir or Madam, please find our catalogue enclosed.', x: 72, y: 700 }] },
    ]);
    const response = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: pdf.bytes, name: 'letter.pdf' },
      fields: { rag: 'true' },
    });
    const { job } = expectJobResponse(await response.json());
    const done = await waitForJob(service, job.id);
    const { inference } = expectExtractionResponse(await (await get(done.result_url ?? '')).json());
    expect(inference.result.rag).toEqual({ retrieved_document_id: null });
  });
});
