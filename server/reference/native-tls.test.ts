/**
 * The reference service serving HTTPS itself (REFERENCE_TLS_CERT_FILE / REFERENCE_TLS_KEY_FILE), as a
 * user runs it for the official client, which only calls `https://` hosts: the client, given nothing
 * but the host, enqueues, polls and reads the result.
 */
import { BufferInput, Client, product } from 'mindee';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReferenceService } from './create-reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import { testCertificates } from '@extraction-review/test-kit/reference/test-tls';

let data: Awaited<ReturnType<typeof makeDataDir>>;
let service: ReferenceService;
let dispatcher: Agent;
const hostBefore = process.env.MINDEE_V2_API_HOST;

beforeAll(async () => {
  data = await makeDataDir();
  const { key, cert, ca } = await testCertificates();
  service = await startTestService(data.dir, { tls: { key, cert } });
  dispatcher = new Agent({ connect: { ca } });
  process.env.MINDEE_V2_API_HOST = new URL(service.url).host;
});

afterAll(async () => {
  if (hostBefore === undefined) delete process.env.MINDEE_V2_API_HOST;
  else process.env.MINDEE_V2_API_HOST = hostBefore;
  await dispatcher.close();
  await service.close();
  await data.remove();
});

it('listens on https and the official client works against it unchanged but for its host', async () => {
  expect(service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const pdf = await generatePdf([{ lines: [{ text: 'Invoice number: TLS-7', x: 72, y: 700 }] }]);
  const client = new Client({ apiKey: TEST_API_KEY, dispatcher });
  const { inference } = await client.enqueueAndGetResult(
    product.Extraction,
    new BufferInput({ buffer: Buffer.from(pdf.bytes), filename: 'tls.pdf' }),
    { modelId: INVOICE_MODEL_ID },
    { initialDelaySec: 1, delaySec: 1, maxRetries: 60 },
  );
  expect(inference.result.fields.get('invoice_number')).toMatchObject({ value: 'TLS-7' });
});
