import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import { expectJobResponse, expectProblem } from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import { manualClock } from '@extraction-review/test-kit/manual-clock';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

/** The service's clock stands at this time: its jobs are created then. */
const T0 = Date.UTC(2026, 10, 25, 9, 0, 0, 123);

let service: ReferenceService;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let pdf: Uint8Array;

beforeAll(async () => {
  data = await makeDataDir();
  service = await startTestService(data.dir, { maxFileBytes: 4096, clock: manualClock(T0) });
  pdf = (await generatePdf([{ lines: [{ text: 'Invoice number: A-1', x: 72, y: 700 }] }])).bytes;
});
afterAll(async () => {
  await service.close();
  await data.remove();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HOSTED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return expectProblem(await response.json());
}

/** Only committed uploads of accepted jobs may stay in the files folder. */
const storedFiles = async () => readdir(path.join(data.dir, 'files'));

describe('POST /v2/products/extraction/enqueue', () => {
  it('answers 202 with the job, Processing, in absolute URLs of its own base', async () => {
    const response = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: pdf, name: 'scan 1.bin', type: 'application/octet-stream' },
      fields: { raw_text: 'false', webhook_ids: '', rag: 'true' }, // accepted, ignored for now
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { job: { id: string; created_at: string } };
    expectJobResponse(body);
    expect(body).toEqual({
      job: {
        id: expect.stringMatching(UUID),
        model_id: INVOICE_MODEL_ID,
        filename: 'scan 1.bin',
        alias: null,
        created_at: expect.stringMatching(HOSTED_TIMESTAMP),
        completed_at: null,
        status: 'Processing',
        polling_url: `${service.url}/v2/jobs/${body.job.id}`,
        result_url: null,
        webhooks: [],
        error: null,
      },
    });
    // Created when the service's clock says (the hosted format: microseconds, no zone).
    expect(body.job.created_at).toBe('2026-11-25T09:00:00.123000');
    // The upload is on disk, byte for byte, under the job's id.
    expect(new Uint8Array(await readFile(path.join(data.dir, 'files', body.job.id)))).toEqual(pdf);
  });

  it('returns the alias and honours the filename parameter', async () => {
    const response = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: pdf, name: 'upload.pdf' },
      fields: { alias: 'my-ref-42', filename: 'renamed.pdf' },
    });
    const { job } = expectJobResponse(await response.json());
    expect(job).toMatchObject({ alias: 'my-ref-42', filename: 'renamed.pdf' });
  });

  it('lists every problem at once: missing model_id and missing file', async () => {
    const response = await enqueue(service, { fields: { alias: 'x' } });
    expect(response.status).toBe(422);
    expect(await problemOf(response)).toEqual({
      status: 422,
      title: 'Invalid fields in form',
      detail: 'One or more fields failed validation.',
      code: '422-001',
      errors: [
        { pointer: '#/model_id', detail: 'model_id is required' },
        { pointer: '#/file', detail: 'file is required (or url, or file_base64)' },
      ],
    });
  });

  it('refuses an unknown and a malformed model_id', async () => {
    const unknown = await enqueue(service, {
      modelId: '11111111-2222-4333-8444-555555555555',
      file: { bytes: pdf, name: 'a.pdf' },
    });
    expect(unknown.status).toBe(422);
    expect((await problemOf(unknown)).errors).toEqual([
      { pointer: '#/model_id', detail: 'no model has the id 11111111-2222-4333-8444-555555555555' },
    ]);

    const malformed = await enqueue(service, { modelId: 'invoice', file: { bytes: pdf, name: 'a.pdf' } });
    expect((await problemOf(malformed)).errors).toEqual([
      { pointer: '#/model_id', detail: 'model_id must be a valid UUID format' },
    ]);
  });

  it('checks the document at enqueue: a text file named .pdf is 422-002, an empty or broken file 422-003', async () => {
    const text = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: {
        bytes: new TextEncoder().encode('Invoice number: 1\nTotal: 2\n'),
        name: 'invoice.pdf',
        type: 'application/pdf',
      },
    });
    expect(text.status).toBe(422);
    const unsupported = await problemOf(text);
    expect(unsupported).toMatchObject({ code: '422-002', title: 'Unsupported file type' });
    expect(unsupported.errors).toEqual([{ pointer: '#/file', detail: expect.stringMatching(/^file: /) }]);

    const empty = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: new Uint8Array(), name: 'e.pdf' },
    });
    expect(empty.status).toBe(422);
    const emptyProblem = await problemOf(empty);
    expect(emptyProblem).toMatchObject({ code: '422-003', title: 'Unreadable document' });
    expect(emptyProblem.errors[0]?.pointer).toBe('#/file');

    const broken = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: new TextEncoder().encode('%PDF-1.7\nnot really a PDF\n'), name: 'broken.pdf' },
    });
    expect(broken.status).toBe(422);
    const brokenProblem = await problemOf(broken);
    expect(brokenProblem).toMatchObject({ code: '422-003', title: 'Unreadable document' });
    expect(brokenProblem.errors).toEqual([{ pointer: '#/file', detail: `file: ${brokenProblem.detail}` }]);
  });

  it('says why a file sent as text is not taken, and takes one source only', async () => {
    const asText = await enqueue(service, { modelId: INVOICE_MODEL_ID, fields: { file: '%PDF-1.7 ...' } });
    expect((await problemOf(asText)).errors).toEqual([
      { pointer: '#/file', detail: 'file must be sent as a file part (with a filename), not as text' },
    ]);
    const two = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: pdf, name: 'a.pdf' },
      fields: { url: 'https://documents.invalid/a.pdf' },
    });
    expect(two.status).toBe(422);
    expect((await problemOf(two)).errors).toEqual([
      { pointer: '#/url', detail: 'give only one of file, url and file_base64 (file is already given)' },
    ]);
  });

  it('refuses a file over the size limit with 413, after reading the upload', async () => {
    const big = new Uint8Array(8192);
    big.set(new TextEncoder().encode('%PDF-1.7\n'));
    const response = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      file: { bytes: big, name: 'big.pdf' },
    });
    expect(response.status).toBe(413);
    expect(await problemOf(response)).toEqual({
      status: 413,
      title: 'Payload too large',
      detail: 'The file is larger than the limit of 4096 bytes.',
      code: '413-001',
      errors: [{ pointer: '#/file', detail: 'file must be at most 4096 bytes' }],
    });
  });

  it('refuses bodies that are neither multipart nor JSON, and broken multipart or JSON', async () => {
    const plain = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ model_id: INVOICE_MODEL_ID }),
    });
    expect(plain.status).toBe(415);
    expect((await problemOf(plain)).code).toBe('415-001');

    const brokenJson = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'application/json' },
      body: '{"model_id": ',
    });
    expect(brokenJson.status).toBe(400);
    expect((await problemOf(brokenJson)).code).toBe('400-001');

    const notAnObject = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'application/json' },
      body: '[1, 2]',
    });
    expect(notAnObject.status).toBe(422);
    expect((await problemOf(notAnObject)).errors).toEqual([
      { pointer: '#', detail: 'the body must be a JSON object' },
    ]);

    const noBoundary = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'multipart/form-data' },
      body: 'whatever',
    });
    expect(noBoundary.status).toBe(400);
    expect((await problemOf(noBoundary)).code).toBe('400-001');

    const truncated = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 and then noth',
    });
    expect(truncated.status).toBe(400);

    const empty = await fetch(`${service.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: TEST_API_KEY, 'Content-Type': 'multipart/form-data; boundary=XYZ' },
    });
    expect(empty.status).toBe(400);
    expect((await get(`${service.url}/health`)).status).toBe(200);
  });

  it('leaves no part behind when the parser fails as the file part begins, whatever finishes first', async () => {
    // A file part cut short by the end of the body: the parser refuses while the file is being
    // opened. Many at once, so that every order of the stream opening and the route discarding occurs.
    const body =
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 and then noth';
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        fetch(`${service.url}/v2/products/extraction/enqueue`, {
          method: 'POST',
          headers: { Authorization: TEST_API_KEY, 'Content-Type': 'multipart/form-data; boundary=XYZ' },
          body,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 40 }, () => 400));
    expect((await storedFiles()).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('leaves no file behind for a refused upload', async () => {
    const files = await storedFiles();
    expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
    // Exactly the two accepted uploads of the tests above.
    expect(files).toHaveLength(2);
  });
});

describe('REFERENCE_PUBLIC_URL', () => {
  it('is the base of every URL the service writes', async () => {
    const other = await makeDataDir();
    const behindProxy = await startTestService(other.dir, {
      publicUrl: 'https://reference.example.org/base/',
    });
    try {
      const response = await enqueue(behindProxy, {
        modelId: INVOICE_MODEL_ID,
        file: { bytes: pdf, name: 'a.pdf' },
      });
      const { job } = expectJobResponse(await response.json());
      expect(job.polling_url).toBe(`https://reference.example.org/base/v2/jobs/${job.id}`);
    } finally {
      await behindProxy.close();
      await other.remove();
    }
  });
});
