/**
 * The official `mindee` client, unchanged but for its host, against the reference service. The client
 * speaks only `https://${host}` and follows `result_url` only when it is https, so it goes through a
 * local TLS-terminating proxy the service trusts (REFERENCE_TRUST_PROXY=loopback): this also proves the
 * service writes `https://` URLs for a client behind TLS termination.
 */
import { Agent } from 'undici';
import { BufferInput, Client, product, UrlInput } from 'mindee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  startHttpsServer,
  startTlsProxy,
  testCertificates,
  writeCaFile,
  type TestHttpsServer,
} from '@extraction-review/test-kit/reference/test-tls';

let data: Awaited<ReturnType<typeof makeDataDir>>;
let service: ReferenceService;
let proxy: TestHttpsServer;
let files: TestHttpsServer;
let dispatcher: Agent;
let pdf: Buffer;
const hostBefore = process.env.MINDEE_V2_API_HOST;

beforeAll(async () => {
  data = await makeDataDir();
  pdf = Buffer.from(
    (
      await generatePdf([
        {
          lines: [
            { text: 'Invoice number: SDK-42', x: 72, y: 700 },
            { text: 'Total: 1,234.50', x: 72, y: 680 },
          ],
        },
      ])
    ).bytes,
  );
  service = await startTestService(data.dir, {
    trustProxy: ['loopback'],
    urlInput: { allowHosts: ['localhost', '127.0.0.1'], caFile: await writeCaFile(data.dir) },
  });
  proxy = await startTlsProxy(service.url);
  files = await startHttpsServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    response.end(pdf);
  });
  dispatcher = new Agent({ connect: { ca: (await testCertificates()).ca } });
  // The only change the client needs: its host (it reads it when a Client is made).
  process.env.MINDEE_V2_API_HOST = `localhost:${proxy.port}`;
});
afterAll(async () => {
  if (hostBefore === undefined) delete process.env.MINDEE_V2_API_HOST;
  else process.env.MINDEE_V2_API_HOST = hostBefore;
  await dispatcher.close();
  await proxy.close();
  await files.close();
  await service.close();
  await data.remove();
});

const polling = { initialDelaySec: 1, delaySec: 1, maxRetries: 60 };

describe('the official mindee client', () => {
  it('enqueues a file with options, polls through the 302 and reads the result', async () => {
    const client = new Client({ apiKey: TEST_API_KEY, dispatcher });
    const response = await client.enqueueAndGetResult(
      product.Extraction,
      new BufferInput({ buffer: pdf, filename: 'sdk.pdf' }),
      { modelId: INVOICE_MODEL_ID, rawText: true, confidence: false, polygon: true },
      polling,
    );
    const { inference } = response;
    expect(inference.file.name).toBe('sdk.pdf');
    // (Client 5.2.0 does not send `alias` for extraction: ExtractionParameters.getFormData leaves it out.)
    expect(inference.file.mimeType).toBe('application/pdf');
    expect(inference.activeOptions.rawText).toBe(true);
    expect(inference.activeOptions.confidence).toBe(false);
    expect(inference.result.fields.get('invoice_number')).toMatchObject({ value: 'SDK-42' });
    expect(inference.result.rawText?.pages[0]?.content).toContain('Invoice number: SDK-42');
  });

  it('replaces the data schema for one inference', async () => {
    const client = new Client({ apiKey: TEST_API_KEY, dispatcher });
    const response = await client.enqueueAndGetResult(
      product.Extraction,
      new BufferInput({ buffer: pdf, filename: 'sdk.pdf' }),
      {
        modelId: INVOICE_MODEL_ID,
        dataSchema: {
          replace: {
            fields: [
              {
                name: 'grand_total',
                title: 'Total',
                is_array: false,
                type: 'number',
                description: 'The total to pay.',
              },
            ],
          },
        },
      },
      polling,
    );
    expect(response.inference.activeOptions.dataSchema.replace).toBe(true);
    expect([...response.inference.result.fields.keys()]).toEqual(['grand_total']);
    expect(response.inference.result.fields.get('grand_total')).toMatchObject({ value: 1234.5 });
  });

  it('sends a URL input', async () => {
    const client = new Client({ apiKey: TEST_API_KEY, dispatcher });
    const response = await client.enqueueAndGetResult(
      product.Extraction,
      new UrlInput({ url: `https://localhost:${files.port}/remote.pdf` }),
      { modelId: INVOICE_MODEL_ID },
      polling,
    );
    expect(response.inference.file.name).toBe('remote.pdf');
    expect(response.inference.result.fields.get('invoice_number')).toMatchObject({ value: 'SDK-42' });
  });

  it('reads our problem details as its own errors', async () => {
    const client = new Client({ apiKey: 'not-the-key', dispatcher });
    await expect(
      client.enqueue(product.Extraction, new BufferInput({ buffer: pdf, filename: 'x.pdf' }), {
        modelId: INVOICE_MODEL_ID,
      }),
    ).rejects.toMatchObject({ status: 401, code: '401-001', title: 'Invalid API key' });

    const good = new Client({ apiKey: TEST_API_KEY, dispatcher });
    await expect(
      good.enqueue(product.Extraction, new BufferInput({ buffer: pdf, filename: 'x.pdf' }), {
        modelId: '11111111-2222-4333-8444-555555555555',
      }),
    ).rejects.toMatchObject({ status: 422, code: '422-001' });
  });
});
