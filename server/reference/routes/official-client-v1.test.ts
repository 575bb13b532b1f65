/**
 * The official `mindee` client's v1 API (`v1.Client`), unchanged but for its host (`MINDEE_API_HOST`),
 * against the reference service's /v1: synchronous `parse` (invoices v4), `enqueueAndParse` with
 * polling through the 302 (expense_receipts v5, and the custom product), `sendFeedback` (a PUT
 * without Content-Type) and its errors. As in
 * official-client.test.ts, the client speaks only https, so it goes through a local TLS-terminating
 * proxy the service trusts.
 */
import { BufferInput, v1 } from 'mindee';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  startTlsProxy,
  testCertificates,
  type TestHttpsServer,
} from '@extraction-review/test-kit/reference/test-tls';

let data: Awaited<ReturnType<typeof makeDataDir>>;
let service: ReferenceService;
let proxy: TestHttpsServer;
let dispatcher: Agent;
let pdf: Buffer;
const hostBefore = process.env.MINDEE_API_HOST;

beforeAll(async () => {
  data = await makeDataDir();
  pdf = Buffer.from(
    (
      await generatePdf([
        {
          lines: [
            { text: 'ACME Supplies Ltd', x: 72, y: 740, size: 16 },
            { text: 'Invoice number: V1-SDK-7', x: 72, y: 700 },
            { text: 'Date: 2025-03-14', x: 72, y: 680 },
            { text: 'Total: 1,234.50', x: 72, y: 660 },
          ],
        },
      ])
    ).bytes,
  );
  service = await startTestService(data.dir, { trustProxy: ['loopback'] });
  proxy = await startTlsProxy(service.url);
  dispatcher = new Agent({ connect: { ca: (await testCertificates()).ca } });
  // The only change the client needs: its host (read when a Client is made).
  process.env.MINDEE_API_HOST = `localhost:${proxy.port}`;
});
afterAll(async () => {
  if (hostBefore === undefined) delete process.env.MINDEE_API_HOST;
  else process.env.MINDEE_API_HOST = hostBefore;
  await dispatcher.close();
  await proxy.close();
  await service.close();
  await data.remove();
});

const input = (): BufferInput => new BufferInput({ buffer: pdf, filename: 'v1-sdk.pdf' });

describe('the official mindee client, v1', () => {
  it('parses an invoice synchronously (invoices v4) and sends feedback for it', async () => {
    const client = new v1.Client({ apiKey: TEST_API_KEY, dispatcher });
    const response = await client.parse(v1.product.InvoiceV4, input());
    const { document } = response;
    expect(document.filename).toBe('v1-sdk.pdf');
    expect(document.nPages).toBe(1);
    expect(document.inference.prediction.invoiceNumber.value).toBe('V1-SDK-7');
    expect(document.inference.prediction.totalAmount.value).toBe(1234.5);
    expect(document.inference.pages).toHaveLength(1);

    const feedback = await client.sendFeedback(v1.product.InvoiceV4, document.id, {
      feedback: { invoice_number: { value: 'V1-SDK-7' }, total_amount: { value: 1234.5 } },
    });
    expect(feedback.feedback).toMatchObject({
      invoice_number: { value: 'V1-SDK-7' },
      total_amount: { value: 1234.5 },
      due_date: null,
    });
  });

  it('enqueues and polls until parsed (expense_receipts v5)', async () => {
    const client = new v1.Client({ apiKey: TEST_API_KEY, dispatcher });
    const response = await client.enqueueAndParse(v1.product.ReceiptV5, input(), {
      initialDelaySec: 1,
      delaySec: 1,
      maxRetries: 60,
    });
    expect(response.job.status).toBe('completed');
    expect(response.document?.filename).toBe('v1-sdk.pdf');
    expect(response.document?.inference.prediction.totalAmount.value).toBe(1234.5);
  });

  it('runs a custom product (GeneratedV1) asynchronously; its feedback is disabled: a 403 error', async () => {
    const client = new v1.Client({ apiKey: TEST_API_KEY, dispatcher });
    const endpoint = client.createEndpoint('purchase_orders', 'acme-corp', '1');
    const response = await client.enqueueAndParse(v1.product.GeneratedV1, input(), {
      endpoint,
      initialDelaySec: 1,
      delaySec: 1,
      maxRetries: 60,
    });
    const documentId = response.document?.id ?? '';
    expect(documentId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(
      client.sendFeedback(
        v1.product.GeneratedV1,
        documentId,
        { feedback: { supplier_name: { value: 'X' } } },
        { endpoint },
      ),
    ).rejects.toMatchObject({ name: 'MindeeHttp403Error', code: 403, message: 'Feedback not enabled' });
  });

  it('reads a wrong key and an empty feedback as its own errors', async () => {
    const wrong = new v1.Client({ apiKey: 'not-the-key', dispatcher });
    await expect(wrong.parse(v1.product.InvoiceV4, input())).rejects.toMatchObject({
      name: 'MindeeHttp401Error',
      code: 401,
      message: 'Invalid API key',
    });
    const client = new v1.Client({ apiKey: TEST_API_KEY, dispatcher });
    const { document } = await client.parse(v1.product.InvoiceV4, input());
    await expect(
      client.sendFeedback(v1.product.InvoiceV4, document.id, { feedback: {} }),
    ).rejects.toMatchObject({ name: 'MindeeHttp400Error', code: 400, message: 'Invalid feedback' });
  });
});
