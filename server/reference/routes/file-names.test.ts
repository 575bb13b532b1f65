/**
 * File names in multipart parts, kept exactly as sent, by v2 (`job.filename`, the inference's
 * `file.name`) and v1 (`document.name`): UTF-8 bytes as browsers, curl and fetch send them, RFC 5987
 * `filename*`, and Latin-1 bytes from older clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let pdf: Buffer;

beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir);
  pdf = Buffer.from((await generatePdf([{ lines: [{ text: 'Invoice number: N-1', x: 72, y: 700 }] }])).bytes);
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

const BOUNDARY = 'n4mes-b0undary';

/** A multipart body whose file part's Content-Disposition parameters are exactly these bytes. */
function body(
  fileField: string,
  nameParam: Buffer,
  fields: Record<string, string> = {},
): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; `),
    nameParam,
    Buffer.from('\r\nContent-Type: application/pdf\r\n\r\n'),
    pdf,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  const joined = Buffer.concat(parts);
  const out = new Uint8Array(new ArrayBuffer(joined.byteLength));
  out.set(joined);
  return out;
}

const CASES = [
  ['UTF-8 in filename', Buffer.from('filename="facture-été-📄.pdf"', 'utf8'), 'facture-été-📄.pdf'],
  [
    'UTF-8 in filename*',
    Buffer.from("filename*=UTF-8''facture-%C3%A9t%C3%A9-%F0%9F%93%84.pdf"),
    'facture-été-📄.pdf',
  ],
  ['Latin-1 in filename', Buffer.from('filename="reçu-été.pdf"', 'latin1'), 'reçu-été.pdf'],
] as const;

describe('multipart file names', () => {
  it.each(CASES)('v2 keeps %s as sent, in the job and in the inference', async (_case, param, expected) => {
    const response = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: body('file', param, { model_id: INVOICE_MODEL_ID }),
    });
    expect(response.status).toBe(202);
    const { job } = (await response.json()) as { job: { id: string; filename: string } };
    expect(job.filename).toBe(expected);
    let resultUrl: string | undefined;
    for (let i = 0; i < 400 && resultUrl === undefined; i += 1) {
      const polled = (await (
        await fetch(`${service.url}/v2/jobs/${job.id}?redirect=false`, {
          headers: { Authorization: TEST_API_KEY },
        })
      ).json()) as { job: { status: string; result_url: string | null } };
      if (polled.job.status === 'Processed') resultUrl = polled.job.result_url ?? undefined;
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const result = (await (
      await fetch(resultUrl ?? '', { headers: { Authorization: TEST_API_KEY } })
    ).json()) as {
      inference: { file: { name: string } };
    };
    expect(result.inference.file.name).toBe(expected);
  });

  it.each(CASES)('v1 keeps %s as sent, in the document', async (_case, param, expected) => {
    const response = await fetch(`${service.url}/v1/products/mindee/invoices/v4/predict`, {
      method: 'POST',
      headers: {
        Authorization: `Token ${TEST_API_KEY}`,
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body: body('document', param),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { document: { name: string } }).document.name).toBe(expected);
  });
});
