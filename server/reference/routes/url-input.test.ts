/**
 * The `url` input over real HTTP(S): the service downloads from a local HTTPS server with a test
 * certificate authority, and refuses what the hosted service refuses (http, too long, redirects,
 * addresses that are not public, too large). Host names are resolved by a test resolver or
 * /etc/hosts: no query leaves the machine.
 */
import { lookup } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceService } from '../create-reference-service';
import type { Resolver } from '../fetch/download-url';
import {
  expectExtractionResponse,
  expectJobResponse,
  expectProblem,
} from '@extraction-review/test-kit/reference/contract';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  enqueueJson,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  startTestService,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  startHttpsServer,
  writeCaFile,
  type TestHttpsServer,
} from '@extraction-review/test-kit/reference/test-tls';

const MAX_FILE_BYTES = 32 * 1024;

let files: TestHttpsServer;
let data: Awaited<ReturnType<typeof makeDataDir>>;
/** Allows 127.0.0.1 and localhost, trusts the test CA. */
let service: ReferenceService;
/** The production policy: public addresses only, the usual CAs only. */
let strict: ReferenceService;
let invoice: Uint8Array;
const resolved: string[] = [];

/** Test names; anything else through /etc/hosts only (localhost). */
const resolver: Resolver = async (host) => {
  resolved.push(host);
  if (host === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'files.test') return [{ address: '10.0.0.7', family: 4 }];
  if (host === 'mixed.test') {
    return [
      { address: '93.184.215.14', family: 4 },
      { address: '192.168.1.20', family: 4 },
    ];
  }
  if (host === 'localhost') {
    return (await lookup(host, { all: true })).map(({ address, family }) => ({
      address,
      family: family === 6 ? 6 : 4,
    }));
  }
  throw new Error(`the test resolver does not know ${host}`);
};

beforeAll(async () => {
  invoice = (
    await generatePdf([
      {
        lines: [
          { text: 'Invoice number: URL-7', x: 72, y: 700 },
          { text: 'Total: 99.50', x: 72, y: 680 },
        ],
      },
    ])
  ).bytes;
  files = await startHttpsServer((request, response) => {
    const url = new URL(request.url ?? '/', 'https://files');
    switch (url.pathname) {
      case '/invoice.pdf':
        // A misleading type: the service goes by the bytes.
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.end(invoice);
        return;
      case '/download':
        response.writeHead(200, { 'Content-Disposition': 'attachment; filename="from-header.pdf"' });
        response.end(invoice);
        return;
      case '/moved.pdf':
        response.writeHead(302, { Location: '/invoice.pdf' });
        response.end();
        return;
      case '/big-declared.pdf':
        response.writeHead(200, { 'Content-Length': String(MAX_FILE_BYTES * 2) });
        response.end(Buffer.alloc(MAX_FILE_BYTES * 2, 0x25));
        return;
      case '/big-chunked.pdf':
        response.writeHead(200);
        for (let i = 0; i < 8; i++) response.write(Buffer.alloc(MAX_FILE_BYTES / 4, 0x25));
        response.end();
        return;
      case '/notes.txt':
        response.writeHead(200);
        response.end('just some text, not a document');
        return;
      case '/slow.pdf':
        return; // never answers
      default:
        response.writeHead(404);
        response.end('not here');
    }
  });
  data = await makeDataDir();
  const caFile = await writeCaFile(data.dir);
  service = await startTestService(`${data.dir}/allowing`, {
    maxFileBytes: MAX_FILE_BYTES,
    urlInput: { allowHosts: ['127.0.0.1', 'localhost'], caFile, resolve: resolver, timeoutMs: 1500 },
  });
  strict = await startTestService(`${data.dir}/strict`, { urlInput: { resolve: resolver } });
});
afterAll(async () => {
  await service.close();
  await strict.close();
  await files.close();
  await data.remove();
});

async function problemOf(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return expectProblem(await response.json());
}

describe('url input', () => {
  it('downloads an allowed HTTPS file, types it from its bytes and processes it (JSON and multipart)', async () => {
    const viaJson = await enqueueJson(service, {
      model_id: INVOICE_MODEL_ID,
      url: `${files.url}/invoice.pdf`,
    });
    expect(viaJson.status).toBe(202);
    const { job } = expectJobResponse(await viaJson.json());
    expect(job.filename).toBe('invoice.pdf');
    const done = await waitForJob(service, job.id);
    expect(done.status).toBe('Processed');
    const { inference } = expectExtractionResponse(await (await get(done.result_url ?? '')).json());
    expect(inference.file).toMatchObject({
      name: 'invoice.pdf',
      mime_type: 'application/pdf',
      page_count: 1,
    });
    expect(inference.result.fields['invoice_number']).toMatchObject({ value: 'URL-7' });

    const viaForm = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      fields: { url: `${files.url}/download`, alias: 'from-url' },
    });
    expect(viaForm.status).toBe(202);
    expect(expectJobResponse(await viaForm.json()).job).toMatchObject({
      filename: 'from-header.pdf',
      alias: 'from-url',
    });

    const renamed = await enqueueJson(service, {
      model_id: INVOICE_MODEL_ID,
      url: `${files.url}/invoice.pdf`,
      filename: 'chosen.pdf',
    });
    expect(expectJobResponse(await renamed.json()).job.filename).toBe('chosen.pdf');
  });

  it('refuses http:// and a URL over 2048 characters, before any download', async () => {
    const before = files.requests.length;
    const http = await enqueueJson(service, { model_id: INVOICE_MODEL_ID, url: 'http://127.0.0.1/a.pdf' });
    expect(http.status).toBe(422);
    expect(await problemOf(http)).toMatchObject({
      code: '422-001',
      errors: [{ pointer: '#/url', detail: 'url: Expected a public https:// URL' }],
    });

    const long = await enqueue(service, {
      modelId: INVOICE_MODEL_ID,
      fields: { url: `${files.url}/${'a'.repeat(2048)}.pdf` },
    });
    expect(long.status).toBe(422);
    expect((await problemOf(long)).errors).toEqual([
      { pointer: '#/url', detail: 'url: The URL is longer than 2048 characters' },
    ]);
    expect(files.requests.length).toBe(before);
  });

  it('refuses a file behind a redirection, and an error answer', async () => {
    const before = files.requests.length;
    const moved = await enqueueJson(service, { model_id: INVOICE_MODEL_ID, url: `${files.url}/moved.pdf` });
    expect(moved.status).toBe(422);
    const problem = await problemOf(moved);
    expect(problem).toMatchObject({ code: '422-005', title: 'File not retrievable' });
    expect(problem.detail).toMatch(/behind a redirection \(HTTP 302 to \/invoice\.pdf\)/);
    expect(problem.errors).toEqual([{ pointer: '#/url', detail: problem.detail }]);
    // Not followed.
    expect(files.requests.slice(before).map((r) => r.path)).toEqual(['/moved.pdf']);

    const missing = await enqueueJson(service, { model_id: INVOICE_MODEL_ID, url: `${files.url}/nope.pdf` });
    expect(missing.status).toBe(422);
    expect((await problemOf(missing)).detail).toBe('The URL answered HTTP 404, not the file.');
  });

  it('refuses addresses that are not public: 127.0.0.1, localhost, a name resolving to a private or mixed set', async () => {
    const before = files.requests.length;
    for (const url of [
      `${files.url}/invoice.pdf`,
      `https://localhost:${files.port}/invoice.pdf`,
      'https://files.test/invoice.pdf',
      'https://mixed.test/invoice.pdf',
      'https://[::ffff:127.0.0.1]/invoice.pdf',
      'https://10.1.2.3/invoice.pdf',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const response = await enqueueJson(strict, { model_id: INVOICE_MODEL_ID, url });
      expect(response.status, url).toBe(422);
      const problem = await problemOf(response);
      expect(problem.code, url).toBe('422-005');
      expect(problem.detail, url).toMatch(/which is not a public address/);
    }
    // Nothing was fetched.
    expect(files.requests.length).toBe(before);
  });

  it('connects to the address it checked, with the URL host as TLS server name and Host', async () => {
    resolved.length = 0;
    const pinned = await startTestService(`${data.dir}/pinned`, {
      urlInput: { allowHosts: ['127.0.0.1'], caFile: await writeCaFile(data.dir), resolve: resolver },
    });
    try {
      const response = await enqueueJson(pinned, {
        model_id: INVOICE_MODEL_ID,
        url: `https://rebind.test:${files.port}/invoice.pdf`,
      });
      expect(response.status).toBe(202);
      // Resolved once; the request reached 127.0.0.1 speaking as rebind.test.
      expect(resolved).toEqual(['rebind.test']);
      expect(files.requests.at(-1)).toMatchObject({
        host: `rebind.test:${files.port}`,
        servername: 'rebind.test',
        path: '/invoice.pdf',
      });
    } finally {
      await pinned.close();
    }
  });

  it('refuses a certificate it does not trust', async () => {
    const noCa = await startTestService(`${data.dir}/no-ca`, {
      urlInput: { allowHosts: ['127.0.0.1'], resolve: resolver },
    });
    try {
      const response = await enqueueJson(noCa, {
        model_id: INVOICE_MODEL_ID,
        url: `${files.url}/invoice.pdf`,
      });
      expect(response.status).toBe(422);
      expect((await problemOf(response)).detail).toMatch(/could not be downloaded: .*certificate/i);
    } finally {
      await noCa.close();
    }
  });

  it('refuses a download over the size limit, declared or not, with 413', async () => {
    for (const name of ['big-declared.pdf', 'big-chunked.pdf']) {
      const response = await enqueueJson(service, {
        model_id: INVOICE_MODEL_ID,
        url: `${files.url}/${name}`,
      });
      expect(response.status, name).toBe(413);
      expect(await problemOf(response)).toMatchObject({
        code: '413-001',
        errors: [{ pointer: '#/url', detail: 'url must be at most 32768 bytes' }],
      });
    }
  });

  it('gives up on a download that takes too long, and types the bytes at enqueue', async () => {
    const slow = await enqueueJson(service, { model_id: INVOICE_MODEL_ID, url: `${files.url}/slow.pdf` });
    expect(slow.status).toBe(422);
    expect((await problemOf(slow)).detail).toBe('The file at the URL could not be downloaded within 2 s.');

    const text = await enqueueJson(service, { model_id: INVOICE_MODEL_ID, url: `${files.url}/notes.txt` });
    expect(text.status).toBe(422);
    const problem = await problemOf(text);
    expect(problem.code).toBe('422-002');
    expect(problem.errors[0]?.pointer).toBe('#/url');
  });
});
