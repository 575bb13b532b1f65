/**
 * A corpus of bad input run against both servers over HTTP (and raw TCP where fetch cannot send it):
 * every refusal is a problem-details body with a documented code (the v1 envelope with the same codes
 * on v1 routes), never a bare status, an HTML page or a crash; and the servers still answer afterwards.
 */
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import { problemCatalog } from '@extraction-review/contract/problem';
import type { ReferenceService } from '@extraction-review/reference/create-reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';

let reference: ReferenceService;
let app: RunningServer;
let data: Awaited<ReturnType<typeof makeDataDir>>;
let pdf: Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  data = await makeDataDir();
  reference = await startTestService(path.join(data.dir, 'reference'), { maxFileBytes: 64 * 1024 });
  const upstream = { url: reference.url, apiKey: TEST_API_KEY };
  app = await listen(createApp({ upstream: { v2: upstream, v1: upstream }, staticDir: null }), {
    host: '127.0.0.1',
    port: 0,
  });
  const bytes = (await generatePdf([{ lines: [{ text: 'Invoice number: BAD-1', x: 72, y: 700 }] }])).bytes;
  pdf = new Uint8Array(new ArrayBuffer(bytes.byteLength));
  pdf.set(bytes);
});
afterAll(async () => {
  await app.close();
  await reference.close();
  await data.remove();
});

interface Case {
  name: string;
  method?: string;
  /** On the reference service (`/v2`, `/v1`) or through the app server (`/api/v2`, `/api/v1`). */
  path: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  /** Sent without the key. */
  anonymous?: boolean;
}

const KEY = { v2: TEST_API_KEY, v1: `Token ${TEST_API_KEY}` };
const V2_ENQUEUE = '/v2/products/extraction/enqueue';
const V1_PREDICT = '/v1/products/mindee/invoices/v4/predict';

function multipart(parts: string): { headers: Record<string, string>; body: string } {
  return { headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ' }, body: `${parts}--XYZ--\r\n` };
}

const form = (entries: Record<string, string | Blob>): FormData => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
};

const CASES = (): Case[] => [
  { name: 'no key', path: V2_ENQUEUE, method: 'POST', anonymous: true },
  { name: 'a wrong key', path: '/v2/jobs/x', headers: { Authorization: 'nope' } },
  { name: 'an unknown route', path: '/v2/nothing/here' },
  { name: 'a path that climbs', path: '/v2/jobs/..%2F..%2Fetc%2Fpasswd' },
  { name: 'a NUL in the path', path: '/v2/jobs/%00' },
  { name: 'a job id that is no UUID', path: '/v2/jobs/not-a-uuid' },
  { name: 'an unknown job', path: '/v2/jobs/7b4c3a8e-1f2d-4e5a-9b6c-0d1e2f3a4b5c' },
  { name: 'an unknown inference', path: '/v2/inferences/7b4c3a8e-1f2d-4e5a-9b6c-0d1e2f3a4b5c' },
  { name: 'GET on enqueue', path: V2_ENQUEUE, method: 'GET' },
  { name: 'an empty body', path: V2_ENQUEUE, method: 'POST' },
  {
    name: 'text/plain',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: 'hello',
  },
  {
    name: 'broken JSON',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"model_id": ',
  },
  {
    name: 'JSON that is an array',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '[1,2]',
  },
  {
    name: 'JSON with wrong types',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model_id: 42, file_base64: true, rag: 'maybe' }),
  },
  {
    name: 'invalid base64',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model_id: INVOICE_MODEL_ID, file_base64: '@@@not base64@@@' }),
  },
  {
    name: 'an http URL',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model_id: INVOICE_MODEL_ID, url: 'http://example.com/a.pdf' }),
  },
  {
    name: 'a private address URL',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model_id: INVOICE_MODEL_ID, url: 'https://169.254.169.254/latest/meta-data' }),
  },
  {
    name: 'multipart without a boundary',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'multipart/form-data' },
    body: 'x',
  },
  {
    name: 'multipart cut short',
    path: V2_ENQUEUE,
    method: 'POST',
    headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ' },
    body: '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7 then noth',
  },
  {
    name: 'an unknown model',
    path: V2_ENQUEUE,
    method: 'POST',
    body: form({ model_id: '00000000-0000-4000-8000-000000000000', file: new Blob([pdf]) }),
  },
  { name: 'no document', path: V2_ENQUEUE, method: 'POST', body: form({ model_id: INVOICE_MODEL_ID }) },
  {
    name: 'a file over the limit',
    path: V2_ENQUEUE,
    method: 'POST',
    body: form({ model_id: INVOICE_MODEL_ID, file: new Blob([new Uint8Array(200 * 1024)]) }),
  },
  {
    name: 'a file that is no document',
    path: V2_ENQUEUE,
    method: 'POST',
    body: form({ model_id: INVOICE_MODEL_ID, file: new Blob(['just some text, not a PDF or an image']) }),
  },
  {
    name: 'a broken PDF',
    path: V2_ENQUEUE,
    method: 'POST',
    body: form({ model_id: INVOICE_MODEL_ID, file: new Blob(['%PDF-1.7\n1 0 obj garbage']) }),
  },
  {
    name: 'webhook_ids that are no UUIDs',
    path: V2_ENQUEUE,
    method: 'POST',
    ...multipart(
      `--XYZ\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${INVOICE_MODEL_ID}\r\n` +
        '--XYZ\r\nContent-Disposition: form-data; name="webhook_ids"\r\n\r\nnot-a-uuid\r\n',
    ),
  },
  { name: 'a bad models search', path: '/v2/search/models?page=-1&per_page=abc' },
  {
    name: 'a bad data schema replacement',
    path: `/v2/models/${INVOICE_MODEL_ID}/data_schema`,
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: '{"fields": 3}',
  },
  { name: 'v1 without a key', path: V1_PREDICT, method: 'POST', anonymous: true },
  { name: 'v1 without a document', path: V1_PREDICT, method: 'POST', body: form({}) },
  {
    name: 'v1 with an http URL',
    path: V1_PREDICT,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ document: 'http://example.com/a.pdf' }),
  },
  {
    name: 'v1 an unknown product',
    path: '/v1/products/nobody/nothing/v9/predict',
    method: 'POST',
    body: form({ document: new Blob([pdf]) }),
  },
  { name: 'v1 an unknown queue id', path: '/v1/products/mindee/invoices/v4/documents/queue/nope' },
  {
    name: 'v1 empty feedback',
    path: '/v1/documents/7b4c3a8e-1f2d-4e5a-9b6c-0d1e2f3a4b5c/feedback',
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: '{"feedback":{}}',
  },
  {
    name: 'v1 feedback as text',
    path: '/v1/documents/7b4c3a8e-1f2d-4e5a-9b6c-0d1e2f3a4b5c/feedback',
    method: 'PATCH',
    headers: { 'Content-Type': 'text/plain' },
    body: 'x',
  },
];

const documented = new Set(Object.keys(problemCatalog));

/** The answer's code, checked to be a documented problem (v2) or v1 envelope (v1). */
async function refusal(response: Response, v1: boolean): Promise<string> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  expect(text, 'a body').not.toBe('');
  const body = JSON.parse(text) as {
    code?: string;
    status?: number;
    title?: string;
    api_request?: { error?: { code?: string }; status_code?: number; status?: string };
  };
  if (v1 && body.api_request !== undefined) {
    expect(body.api_request.status).toBe('failure');
    expect(body.api_request.status_code).toBe(response.status);
    return body.api_request.error?.code ?? '';
  }
  expect(type).toBe('application/problem+json');
  expect(body.status).toBe(response.status);
  expect(typeof body.title).toBe('string');
  return body.code ?? '';
}

describe.each([
  ['the reference service', () => reference.url, ''],
  ['the app server’s proxy', () => app.url, '/api'],
] as const)('bad input to %s', (_name, base, prefix) => {
  it.each(CASES().map((c) => [c.name, c] as const))('%s: a documented refusal', async (_case, input) => {
    const v1 = input.path.startsWith('/v1');
    const headers: Record<string, string> = { ...(input.headers ?? {}) };
    if (input.anonymous !== true && headers.Authorization === undefined)
      headers.Authorization = v1 ? KEY.v1 : KEY.v2;
    const response = await fetch(`${base()}${prefix}${input.path}`, {
      method: input.method ?? 'GET',
      headers,
      body: input.body,
    });
    const code = await refusal(response, v1);
    expect(documented.has(code), `${code} documented`).toBe(true);
    expect(code.startsWith(String(response.status))).toBe(true);
  });

  it('answers what fetch cannot send (oversized headers, a half-closed body, not HTTP) with problems, and still serves', async () => {
    const { hostname, port } = new URL(base());
    const raw = (payload: string, halfClose = false) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () => {
          socket.write(payload);
          if (halfClose) socket.end();
        });
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const answers = [
      await raw(
        `GET ${prefix}/v2/jobs/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      ),
      await raw(
        `POST ${prefix}${V2_ENQUEUE} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${TEST_API_KEY}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 50\r\n\r\n{"model',
        true,
      ),
      await raw('\u0001\u0002 garbage\r\n\r\n'),
      await raw(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`),
    ];
    for (const answer of answers) {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(head.toLowerCase()).toContain('content-type: application/problem+json');
      expect(documented.has((JSON.parse(body) as { code: string }).code)).toBe(true);
    }
    expect((await fetch(`${base()}${prefix === '' ? '/health' : '/api/health'}`)).status).toBe(200);
  });
});
