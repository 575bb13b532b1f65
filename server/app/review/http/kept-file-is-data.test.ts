/**
 * Kept files are data, never a page of ours (issue 18, item 1), on both engines, over real HTTP, as
 * the attack was made: an operator imports an HTML file and a JS file, an operator's browser and a
 * pipeline (integration key, through the gateway) upload a PDF/HTML polyglot declared `text/html`
 * and an HTML page with `%PDF-` in its first KB declared `application/pdf`. Every one is refused with
 * `422-011` pointing at the file's part, before the upstream gets any byte of it (the upstream here
 * is the real reference service behind a counting pass-through), and nothing is kept. A file kept
 * before these checks, with its sender's `text/html`, is served with the type its bytes say
 * (`application/octet-stream`, as an attachment, for HTML), `nosniff`, and the file route's own
 * sandbox policy: the headers are read as the app server sends them, from the raw HTTP answer.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toImportForm } from '@extraction-review/contract/review/import-form';
import type { RunningServer } from '../../listen';
import { KEPT_FILE_CONTENT_SECURITY_POLICY } from '@extraction-review/server-kit/security-headers';
import type { ReferenceService } from '@extraction-review/test-kit/reference/reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { JobFollower } from '../intake/job-follower';
import { SCREEN_LIMIT_BYTES } from '../intake/upload-screen';
import { openReview, type OpenedReview } from '../open-review';
import { listenWithReview, signInOverHttp } from '@extraction-review/test-kit/review/review-over-http';

const PASSWORD = 'correct horse battery staple';
const SCRIPT = `<script>fetch('/api/operators',{method:'POST',body:JSON.stringify({name:'Mallory',role:'admin'})})</script>`;
const HTML_PAGE = `<!doctype html><html><body>${SCRIPT}</body></html>`;
const JS_FILE = `fetch('/api/operators', { method: 'POST' }); // an operator's "invoice"\n`;
const SVG_FILE = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`;

/** A v2 extraction response, as an import's result part. */
const v2Result = (jobId: string) => ({
  inference: {
    id: `inf-${jobId}`,
    job: { id: jobId },
    model: { id: INVOICE_MODEL_ID },
    file: { name: 'invoice.pdf', alias: null, page_count: 1, mime_type: 'application/pdf' },
    result: { fields: { total: { value: 1, confidence: 'Low', locations: [] } } },
    active_options: {},
  },
});

/** One HTTP answer as it came off the wire: status, headers (raw, repeated ones kept) and body. */
interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  raw: string[];
  body: Buffer;
}

function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            raw: response.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Every value of one header in a raw header list (names case-insensitive). */
const rawValues = (raw: readonly string[], name: string) =>
  raw.filter((_, i) => i % 2 === 1 && raw[i - 1]?.toLowerCase() === name);

describe.each(ENGINES)('kept files are data on %s', (engine) => {
  let store: TestStore;
  let reference: ReferenceService;
  let counter: http.Server;
  /** Requests with a body the upstream received (enqueues, predicts), by path. */
  const upstreamPosts: string[] = [];
  /** Uploads read through and refused by the pass-through instead of reaching the reference. */
  let sinkUploads = false;
  /** Per upload (its boundary): whether the upstream got its first byte while the client still sent. */
  const firstByteWhileSending = new Map<string, boolean>();
  /** The uploads whose client has sent its last byte. */
  const sent = new Set<string>();
  let review: OpenedReview;
  let follower: JobFollower;
  let server: RunningServer;
  let cookie = '';
  let csrf = '';
  let integrationKey = '';
  let pdf: Buffer;

  const filesDir = () => path.join(store.settings.dataDir, 'files');
  const keptFiles = async () =>
    (await readdir(filesDir()).catch(() => [])).filter((f) => !f.endsWith('.part'));
  const documentCount = async () =>
    Number(
      (
        await review.database.db
          .selectFrom('documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    store = await openTestStore(engine);
    reference = await startTestService(path.join(store.settings.dataDir, 'reference'));
    // The real reference service behind a pass-through that counts what reaches it.
    const target = new URL(reference.url);
    counter = http.createServer((request, response) => {
      if (request.method === 'POST') upstreamPosts.push(request.url ?? '');
      if (request.method === 'POST' && sinkUploads) {
        // Read to the end and refused, as an upstream's size limit would: only the app server's
        // own buffers are measured.
        const boundary = /boundary=(\S+)/.exec(request.headers['content-type'] ?? '')?.[1] ?? '';
        request.once('data', () => firstByteWhileSending.set(boundary, !sent.has(boundary)));
        request.resume();
        request.once('end', () => {
          response.writeHead(413, { 'Content-Type': 'application/problem+json' });
          response.end(JSON.stringify({ status: 413, code: '413-001', detail: 'too large' }));
        });
        return;
      }
      const forward = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', () => response.destroy());
      request.pipe(forward);
    });
    await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
    const upstream = {
      url: `http://127.0.0.1:${(counter.address() as AddressInfo).port}`,
      apiKey: TEST_API_KEY,
      aliases: [reference.url],
    };

    review = await openReview(store.settings);
    await review.operators.create(
      { name: 'Olga', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    integrationKey = (await review.integrations.create({ name: 'Pipeline A' }, Date.now())).key;
    ({ server, follower } = await listenWithReview(review, { dataDir: store.settings.dataDir, upstream }));
    ({ cookie, csrf } = await signInOverHttp(server.url, 'Olga', PASSWORD));
    pdf = Buffer.from(
      (await generatePdf([{ lines: [{ text: 'Invoice number: KF-0001', x: 72, y: 700 }] }])).bytes,
    );
  });
  afterAll(async () => {
    await follower?.stop();
    await server?.close();
    await new Promise((resolve) => counter?.close(resolve));
    await review?.close();
    await reference?.close();
    await store?.cleanup();
  });

  /** The headers the app's page sends: same origin, the session cookie and its CSRF token. */
  const operatorHeaders = (headers: Record<string, string> = {}) => ({
    Origin: server.url,
    'Sec-Fetch-Site': 'same-origin',
    Cookie: cookie,
    'X-CSRF-Token': csrf,
    ...headers,
  });

  /** As the app's page sends it. */
  const asOperator = (url: string, body: FormData | string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${url}`, { method: 'POST', headers: operatorHeaders(headers), body });

  /** As a pipeline calls the gateway: its integration key, nothing else. */
  const asPipeline = (
    url: string,
    body: FormData | string,
    authorization: string,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${server.url}${url}`, {
      method: 'POST',
      headers: { Authorization: authorization, ...headers },
      body,
    });

  /** A polyglot: a PDF (its header first) that is also an HTML page with a script. */
  const pdfHtmlPolyglot = () =>
    Buffer.concat([pdf.subarray(0, 15), Buffer.from(`\n%${HTML_PAGE}\n`), pdf.subarray(15)]);
  /** An HTML page with a PDF after its script, `%PDF-` within its first 1024 bytes. */
  const htmlThenPdf = () => Buffer.concat([Buffer.from(`${HTML_PAGE}\n`), pdf]);

  async function refusedWith422011(response: Response, pointer: string) {
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code?: string; errors?: { pointer: string | null }[] };
    expect(body.code).toBe('422-011');
    expect(body.errors?.map((e) => e.pointer)).toEqual([pointer]);
  }

  it('refuses an HTML file, a JS file, an SVG and a PDF/HTML polyglot imported by an operator, keeping nothing', async () => {
    const count = await documentCount();
    const files = await keptFiles();
    const attacks: [string, Blob][] = [
      ['page.html', new Blob([HTML_PAGE], { type: 'text/html' })],
      ['page.pdf', new Blob([HTML_PAGE], { type: 'application/pdf' })],
      ['run.js', new Blob([JS_FILE], { type: 'text/javascript' })],
      ['image.svg', new Blob([SVG_FILE], { type: 'image/svg+xml' })],
      ['polyglot.html', new Blob([new Uint8Array(pdfHtmlPolyglot())], { type: 'text/html' })],
      ['html-then-pdf.pdf', new Blob([new Uint8Array(htmlThenPdf())], { type: 'application/pdf' })],
    ];
    for (const [name, file] of attacks) {
      const response = await asOperator(
        '/api/review/import',
        toImportForm({
          metadata: {
            apiVersion: 'v2',
            model: INVOICE_MODEL_ID,
            fileName: name,
            upstreamJobId: `imp-${name}`,
          },
          result: v2Result(`imp-${name}`),
          file,
        }),
      );
      await refusedWith422011(response, '#/file');
    }
    expect(await documentCount()).toBe(count);
    expect(await keptFiles()).toEqual(files);

    // A real PDF imported under a generic type is kept, under the type of its bytes.
    const kept = await asOperator(
      '/api/review/import',
      toImportForm({
        metadata: { apiVersion: 'v2', model: INVOICE_MODEL_ID, fileName: 'ok.pdf', upstreamJobId: 'imp-ok' },
        result: v2Result('imp-ok'),
        file: new Blob([new Uint8Array(pdf)], { type: 'application/octet-stream' }),
      }),
    );
    expect(kept.status).toBe(201);
    const row = await review.queue.findByUpstreamJob('v2', 'imp-ok');
    expect(row?.mime_type).toBe('application/pdf');
  });

  it('refuses polyglots uploaded through the app before the upstream gets them, and records the sniffed type', async () => {
    const count = await documentCount();
    const posts = upstreamPosts.length;
    const enqueue = (file: Blob, name: string) => {
      const form = new FormData();
      form.set('model_id', INVOICE_MODEL_ID);
      form.set('file', file, name);
      return asOperator('/api/v2/products/extraction/enqueue', form);
    };
    await refusedWith422011(
      await enqueue(new Blob([new Uint8Array(pdfHtmlPolyglot())], { type: 'text/html' }), 'p.html'),
      '#/file',
    );
    await refusedWith422011(
      await enqueue(new Blob([new Uint8Array(htmlThenPdf())], { type: 'application/pdf' }), 'h.pdf'),
      '#/file',
    );
    await refusedWith422011(await enqueue(new Blob([HTML_PAGE], { type: 'text/html' }), 'x.html'), '#/file');
    // v1, its file part named `document`.
    const v1 = new FormData();
    v1.set('document', new Blob([JS_FILE], { type: 'application/javascript' }), 'x.js');
    await refusedWith422011(
      await asOperator('/api/v1/products/mindee/invoices/v4/predict', v1),
      '#/document',
    );
    expect(upstreamPosts.length).toBe(posts);
    expect(await documentCount()).toBe(count);

    // A real PDF sent as octet-stream goes through, and is kept as what its bytes are.
    const ok = await enqueue(new Blob([new Uint8Array(pdf)], { type: 'application/octet-stream' }), 'ok.pdf');
    expect(ok.status).toBe(202);
    const { job } = (await ok.json()) as { job: { id: string } };
    expect(upstreamPosts.length).toBe(posts + 1);
    const row = await waitForJob(job.id);
    expect(row.mime_type).toBe('application/pdf');
  });

  it('refuses a pipeline’s polyglot through the gateway (multipart and base64) before the upstream gets it', async () => {
    const count = await documentCount();
    const posts = upstreamPosts.length;
    const form = new FormData();
    form.set('model_id', INVOICE_MODEL_ID);
    form.set('file', new Blob([new Uint8Array(pdfHtmlPolyglot())], { type: 'text/html' }), 'invoice.html');
    await refusedWith422011(
      await asPipeline('/v2/products/extraction/enqueue', form, integrationKey),
      '#/file',
    );
    const json = JSON.stringify({
      model_id: INVOICE_MODEL_ID,
      file_base64: htmlThenPdf().toString('base64'),
    });
    await refusedWith422011(
      await asPipeline('/v2/products/extraction/enqueue', json, integrationKey, {
        'Content-Type': 'application/json',
      }),
      '#/file_base64',
    );
    const v1 = new FormData();
    v1.set('document', new Blob([new Uint8Array(htmlThenPdf())], { type: 'application/pdf' }), 'invoice.pdf');
    const refusedV1 = await asPipeline(
      '/v1/products/mindee/invoices/v4/predict_async',
      v1,
      `Token ${integrationKey}`,
    );
    expect(refusedV1.status).toBe(422);
    expect(JSON.stringify(await refusedV1.json())).toContain('422-011');
    expect(upstreamPosts.length).toBe(posts);
    expect(await documentCount()).toBe(count);
  });

  it('answers a refused upload once its client has sent it all, on a connection it keeps open', async () => {
    // The polyglot's first bytes decide; the rest comes in pieces after that. Answered while the
    // client still sent, on a connection then closed, the client's next write failed (EPIPE) and it
    // saw no answer at all: a CI run's fetch did, at random.
    const boundary = `kf-${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${INVOICE_MODEL_ID}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="late.html"\r\n` +
        `Content-Type: text/html\r\n\r\n${HTML_PAGE}\n`,
    );
    const pieces = Array.from({ length: 8 }, () => Buffer.alloc(32 * 1024, 0x20));
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const length = head.length + pieces.reduce((sum, piece) => sum + piece.length, 0) + tail.length;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const posts = upstreamPosts.length;
    try {
      let allSent = false;
      const answer = await new Promise<{
        status: number;
        sentFirst: boolean;
        body: string;
        connection?: string;
      }>((resolve, reject) => {
        const request = http.request(
          `${server.url}/api/v2/products/extraction/enqueue`,
          {
            method: 'POST',
            agent,
            headers: operatorHeaders({
              'Content-Type': `multipart/form-data; boundary=${boundary}`,
              'Content-Length': String(length),
            }),
          },
          (response) => {
            const sentFirst = allSent;
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () =>
              resolve({
                status: response.statusCode ?? 0,
                sentFirst,
                body: Buffer.concat(chunks).toString(),
                connection: response.headers.connection,
              }),
            );
          },
        );
        request.on('error', reject);
        void (async () => {
          request.write(head);
          // Each piece once the server has read the one before: the screen has long decided.
          for (const piece of pieces) {
            await new Promise<void>((resolve) => request.write(piece, () => resolve()));
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          request.end(tail, () => (allSent = true));
        })();
      });
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.body)).toMatchObject({ code: '422-011' });
      expect(answer.sentFirst).toBe(true);
      expect(answer.connection).not.toBe('close');
      // The same connection serves the next request.
      const reused = await new Promise<boolean>((resolve, reject) => {
        const request = http.get(`${server.url}/api/health`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve(request.reusedSocket));
        });
        request.on('error', reject);
      });
      expect(reused).toBe(true);
      expect(upstreamPosts.length).toBe(posts);
    } finally {
      agent.destroy();
    }
  });

  it('never keeps a polyglot that came too late in the body to be screened, nor records its declared type', async () => {
    const posts = upstreamPosts.length;
    // Over the screen's limit of fields before the file: the body goes on unscreened.
    const form = new FormData();
    form.set('model_id', INVOICE_MODEL_ID);
    form.set('alias', 'x'.repeat(SCREEN_LIMIT_BYTES + 1024));
    form.set('file', new Blob([new Uint8Array(pdfHtmlPolyglot())], { type: 'text/html' }), 'late.html');
    const answer = await asOperator('/api/v2/products/extraction/enqueue', form);
    // The upstream read it as the PDF it also is, and took it.
    expect(answer.status).toBe(202);
    expect(upstreamPosts.length).toBe(posts + 1);
    const { job } = (await answer.json()) as { job: { id: string } };
    const row = await waitForJob(job.id);
    expect(row.file_key).toBeNull();
    expect(row.mime_type).toBeNull();
    expect(await keptFiles()).not.toContain(row.id);
  });

  it('holds no upload whole while it screens it: 8 × 24 MiB PDFs reach the upstream as they are sent', async () => {
    const size = 24 * 1024 * 1024;
    const pad = Buffer.alloc(1024 * 1024, 0x20);
    const upload = () => {
      const boundary = `kf-${randomUUID()}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${INVOICE_MODEL_ID}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
          `Content-Type: application/pdf\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      async function* body() {
        yield head;
        yield pdf;
        for (let bytes = 0; bytes < size; bytes += pad.length) yield pad;
        yield tail;
        sent.add(boundary);
      }
      return fetch(`${server.url}/api/v2/products/extraction/enqueue`, {
        method: 'POST',
        headers: operatorHeaders({ 'Content-Type': `multipart/form-data; boundary=${boundary}` }),
        body: Readable.toWeb(Readable.from(body())) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
    };
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const round = async () => {
      sinkUploads = true;
      const answers = await Promise.all(Array.from({ length: 8 }, upload)).finally(
        () => (sinkUploads = false),
      );
      for (const answer of answers) await answer.body?.cancel();
      return answers;
    };
    // A first round grows the process's heaps (the client's, in this same process, too: +320 MB, the
    // same with or without the screen); the second shows what an upload holds once they are grown.
    const first = process.memoryUsage().rss;
    await round();
    const grown = process.memoryUsage().rss;
    const before = grown;
    let peak = before;
    // Buffers (the bytes of uploads in flight) are counted apart from the heaps' sizes, which grow
    // and shrink with the collector: they are what an upload held whole would show.
    const buffersBefore = process.memoryUsage().arrayBuffers;
    let buffersPeak = buffersBefore;
    firstByteWhileSending.clear();
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      peak = Math.max(peak, usage.rss);
      buffersPeak = Math.max(buffersPeak, usage.arrayBuffers);
    }, 10);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const answers = await round();
    loop.disable();
    clearInterval(sampler);
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    console.log(
      `[kept files] 8 × ${mb(size)} MiB screened uploads: first round rss ${mb(first)} → ${mb(grown)} MB; ` +
        `second round rss ${mb(before)} → peak ${mb(peak)} MB, buffers ${mb(buffersBefore)} → peak ` +
        `${mb(buffersPeak)} MB ` +
        `(+${mb(peak - before)}); event loop longest delay ${Math.round(loop.max / 1e6)} ms; ` +
        `answers ${answers.map((a) => a.status).join(',')}`,
    );
    // Every upload went through the screen to the upstream, which read it all.
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 8 }, () => 413));
    // No upload was held whole: each reached the upstream while its client was still sending (the
    // screen holds at most its limit, then lets the rest flow). Memory in this process is reported,
    // not asserted: it counts the client's buffers and garbage not yet collected.
    expect([...firstByteWhileSending.values()]).toEqual(Array.from({ length: 8 }, () => true));
  });

  it('serves a kept file with the type of its bytes, nosniff and its own sandbox policy, as sent', async () => {
    // Kept before intake checked types: an HTML page and a PDF/HTML polyglot, both with the sender's
    // `text/html`.
    const keep = async (bytes: Buffer, name: string) => {
      const id = randomUUID();
      const files = review.files;
      if (files === undefined) throw new Error('the review store keeps no files');
      const stored = await files.save(id, Readable.from([bytes]));
      await review.queue.addDocument(
        {
          id,
          apiVersion: 'v2',
          modelKey: INVOICE_MODEL_ID,
          fileName: name,
          mimeType: 'text/html',
          fileKey: id,
          fileBytes: stored.bytes,
          fileSha256: stored.sha256,
          upstreamJobId: `kept-${id}`,
        },
        Date.now(),
      );
      return id;
    };
    const html = await keep(Buffer.from(HTML_PAGE), 'page.html');
    const polyglot = await keep(pdfHtmlPolyglot(), 'invoice.html');

    const get = (id: string) => rawGet(`${server.url}/api/review/documents/${id}/file`, { Cookie: cookie });
    const page = await get(html);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('application/octet-stream');
    expect(page.headers['content-disposition']).toMatch(/^attachment; /);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['content-security-policy']).toBe(KEPT_FILE_CONTENT_SECURITY_POLICY);
    // One policy only: the app's (`script-src 'self'`) is not added beside it.
    expect(rawValues(page.raw, 'content-security-policy')).toHaveLength(1);
    expect(page.body.toString()).toBe(HTML_PAGE);

    const pdfAnswer = await get(polyglot);
    expect(pdfAnswer.headers['content-type']).toBe('application/pdf');
    expect(pdfAnswer.headers['content-disposition']).toMatch(/^inline; /);
    expect(pdfAnswer.headers['x-content-type-options']).toBe('nosniff');
    expect(pdfAnswer.headers['content-security-policy']).toBe(KEPT_FILE_CONTENT_SECURITY_POLICY);
    expect(pdfAnswer.body.equals(pdfHtmlPolyglot())).toBe(true);

    // Any other answer keeps the app's policy.
    const health = await rawGet(`${server.url}/api/health`, {});
    expect(health.headers['content-security-policy']).toContain("script-src 'self'");
  });

  async function waitForJob(jobId: string) {
    for (let tries = 0; tries < 200; tries += 1) {
      const row = await review.queue.findByUpstreamJob('v2', jobId);
      if (row !== undefined) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${jobId} was never kept`);
  }
});
