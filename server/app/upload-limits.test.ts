/**
 * The attack of issue 18 (3) by those allowed to upload: a signed-in operator (the app's /api/v2) and
 * a pipeline's integration (the gateway's /v2 and /v1) send chunked multipart uploads with no length,
 * larger than any document, on both engines. The proxy counts the body as it streams and stops at its
 * limit (DEFAULT_MAX_UPLOAD_BYTES, ~134 MB): the answer is a 413 `413-001` (problem; the v1 envelope
 * on the gateway's /v1), and the upstream, a real node:http server counting what reaches it, receives
 * at most the limit. A multipart body of many huge text fields (within the limit) is taken by the
 * upstream while the recorder holds none of them whole. The app server runs in a child process whose
 * resident memory (VmRSS) stays within 100 MB of its baseline through it all. A RAG document nested
 * 5,000 deep is a 422 `422-010`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { hashPassword } from './review/auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview } from './review/open-review';
import { DEFAULT_MAX_UPLOAD_BYTES } from './proxy/create-proxy';
import type {
  ReviewServerMessage,
  ReviewServerOptions,
} from '@extraction-review/test-kit/app/review-server-process';
import { measureServer, nextMessage } from '@extraction-review/test-kit/app/review-server-client';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';

const MiB = 1024 * 1024;
const MAX_RSS_GROWTH = 100 * MiB;
const PASSWORD = 'correct horse battery staple';
const BOUNDARY = 'attack-boundary-0018';
/** More than the limit: the client would send this much if nobody stopped it. */
const OVERSIZED = DEFAULT_MAX_UPLOAD_BYTES + 32 * MiB;
const FILLER = Buffer.alloc(MiB, 0x41);

interface Answer {
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** Body bytes written before the answer or the close. */
  sent: number;
}

/**
 * A request whose body streams in chunked encoding from `body` (no length declared), written until
 * the server answers or closes, or the body ends. Raw TCP, so that nothing in the client buffers.
 */
async function sendStreamed(
  url: string,
  request: { method: string; path: string; headers: Record<string, string>; body: Iterable<Buffer> },
): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  let done = false;
  const finished = new Promise<void>((resolve) => {
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(received.subarray(0, end).toString('latin1'))?.[1];
      if (length !== undefined && received.length >= end + 4 + Number(length)) {
        done = true;
        resolve();
      }
    });
    socket.on('close', () => {
      done = true;
      resolve();
    });
    socket.on('error', () => undefined);
  });
  socket.write(
    `${request.method} ${request.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
      Object.entries(request.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      'Transfer-Encoding: chunked\r\n\r\n',
  );
  let sent = 0;
  for (const chunk of request.body) {
    if (done) break;
    sent += chunk.length;
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ]);
    if (!socket.write(frame)) await Promise.race([once(socket, 'drain').catch(() => undefined), finished]);
  }
  if (!done) socket.write('0\r\n\r\n');
  await finished;
  socket.destroy();
  const end = received.indexOf('\r\n\r\n');
  if (end === -1) return { status: undefined, headers: {}, body: '', sent };
  const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]) || undefined,
    headers,
    body: received.subarray(end + 4).toString('utf8'),
    sent,
  };
}

const part = (headers: string) => Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`);

/** A multipart upload whose PDF file part goes on for `fileBytes` (a PDF head, then filler). */
function* hugeFile(field: string, fileBytes: number, fields: Record<string, string> = {}): Generator<Buffer> {
  for (const [name, value] of Object.entries(fields)) {
    yield Buffer.concat([
      part(`Content-Disposition: form-data; name="${name}"`),
      Buffer.from(`${value}\r\n`),
    ]);
  }
  yield part(
    `Content-Disposition: form-data; name="${field}"; filename="big.pdf"\r\nContent-Type: application/pdf`,
  );
  yield Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');
  for (let sent = 0; sent < fileBytes; sent += FILLER.length) yield FILLER;
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

/** `count` text fields of `fieldBytes` each, then a small PDF: within the limit, but mostly fields. */
function* hugeFields(count: number, fieldBytes: number): Generator<Buffer> {
  yield Buffer.concat([part('Content-Disposition: form-data; name="model_id"'), Buffer.from('m-1\r\n')]);
  for (let index = 0; index < count; index += 1) {
    yield part(`Content-Disposition: form-data; name="text_context_${index}"`);
    for (let sent = 0; sent < fieldBytes; sent += FILLER.length) yield FILLER;
    yield Buffer.from('\r\n');
  }
  yield* hugeFile('file', 0);
}

describe.each(ENGINES)('uploads over the limit by those allowed to upload, on %s', (engine) => {
  let store: TestStore;
  let upstream: TestUpstream;
  let child: ChildProcess;
  let url = '';
  let integrationKey = '';
  let session: Record<string, string> = {};
  /** Bytes of each request's body that reached the upstream. */
  const reached: number[] = [];

  const next = <T extends ReviewServerMessage['type']>(type: T) => nextMessage(child, type);
  const measure = <T>(run: () => Promise<T>) => measureServer(child, run);

  const multipart = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  const asOperator = () => ({ ...session, ...multipart });
  const asIntegration = (version: 'v2' | 'v1') => ({
    Authorization: version === 'v1' ? `Token ${integrationKey}` : integrationKey,
    ...multipart,
  });

  beforeAll(async () => {
    store = await openTestStore(engine);
    const review = await openReview(store.settings);
    await review.operators.create(
      { name: 'Ada', role: 'operator', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    integrationKey = (await review.integrations.create({ name: 'Mail robot' }, Date.now())).key;
    await review.close();

    upstream = await startUpstream(async (req, res) => {
      const index = reached.push(0) - 1;
      for await (const chunk of req as AsyncIterable<Buffer>)
        reached[index] = (reached[index] ?? 0) + chunk.length;
      const isV1 = (req.url ?? '').startsWith('/v1/');
      res
        .writeHead(isV1 ? 201 : 202, { 'Content-Type': 'application/json' })
        .end(
          JSON.stringify(
            isV1 ? { document: { id: `d-${index}`, name: 'big.pdf' } } : { job: { id: `j-${index}` } },
          ),
        );
    });
    const options: ReviewServerOptions = {
      store: store.settings,
      upstream: { url: upstream.url, apiKey: 'k' },
      intake: true,
    };
    child = fork(
      path.join(import.meta.dirname, '../../packages/test-kit/src/app/review-server-process.ts'),
      [],
      {
        execArgv: ['--import', 'tsx', '--expose-gc'],
        env: { ...process.env, REVIEW_SERVER_OPTIONS: JSON.stringify(options) },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    ({ url } = await next('ready'));
    const signedIn = await fetch(`${url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: url },
      body: JSON.stringify({ name: 'Ada', password: PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const csrf = SessionResponse.parse(await signedIn.json()).csrfToken;
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    session = { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: url, 'Sec-Fetch-Site': 'same-origin' };
    // Warm up (modules, the store's first queries, the recorder) so that the baseline includes them.
    const warm = await sendStreamed(url, {
      method: 'POST',
      path: '/api/v2/products/extraction/enqueue',
      headers: asOperator(),
      body: hugeFile('file', 4 * MiB, { model_id: 'm-1' }),
    });
    expect(warm.status).toBe(202);
  }, 120_000);

  afterAll(async () => {
    if (child?.connected) {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    }
    await upstream?.close();
    await store?.cleanup();
  });

  it('an operator and a pipeline send chunked uploads over the limit: 413 each, the upstream gets at most the limit, memory bounded', async () => {
    const from = reached.length;
    const attacks = [
      {
        who: 'operator /api/v2',
        path: '/api/v2/products/extraction/enqueue',
        headers: asOperator(),
        field: 'file',
      },
      {
        who: 'operator /api/v2',
        path: '/api/v2/products/extraction/enqueue',
        headers: asOperator(),
        field: 'file',
      },
      {
        who: 'pipeline /v2',
        path: '/v2/products/extraction/enqueue',
        headers: asIntegration('v2'),
        field: 'file',
      },
      {
        who: 'pipeline /v1',
        path: '/v1/products/mindee/invoices/v4/predict',
        headers: asIntegration('v1'),
        field: 'document',
      },
    ];
    const { result, peak, after } = await measure(() =>
      Promise.all(
        attacks.map((attack) =>
          sendStreamed(url, {
            method: 'POST',
            path: attack.path,
            headers: attack.headers,
            body: hugeFile(attack.field, OVERSIZED, attack.field === 'file' ? { model_id: 'm-1' } : {}),
          }),
        ),
      ),
    );
    for (const [index, answer] of result.entries()) {
      const { who } = attacks[index] ?? { who: '' };
      expect(answer.status, who).toBe(413);
      expect(answer.sent, who).toBeLessThan(OVERSIZED);
      if (who.includes('/v1')) {
        expect(answer.headers['content-type'], who).toBe('application/json');
        expect(JSON.parse(answer.body), who).toMatchObject({
          api_request: { status: 'failure', status_code: 413, error: { code: '413-001' } },
        });
      } else {
        expect(answer.headers['content-type'], who).toBe('application/problem+json');
        expect(JSON.parse(answer.body), who).toMatchObject({ status: 413, code: '413-001' });
      }
    }
    // Every request reached the upstream, none beyond the limit.
    await Promise.all(upstream.requests.slice(-attacks.length).map((request) => request.closed));
    const upstreamBytes = reached.slice(from);
    expect(upstreamBytes).toHaveLength(attacks.length);
    for (const bytes of upstreamBytes) expect(bytes).toBeLessThanOrEqual(DEFAULT_MAX_UPLOAD_BYTES);
    console.log(
      `[upload limits, ${engine}] ${attacks.length} chunked uploads of ${Math.round(OVERSIZED / MiB)} MiB at once ` +
        `(limit ${Math.round(DEFAULT_MAX_UPLOAD_BYTES / MiB)} MiB): upstream got ${upstreamBytes.map((b) => Math.round(b / MiB)).join(', ')} MiB; ` +
        `server RSS +${(peak / MiB).toFixed(1)} MB at peak, +${(after / MiB).toFixed(1)} MB after`,
    );
    expect(peak).toBeLessThan(MAX_RSS_GROWTH);
    expect(after).toBeLessThan(MAX_RSS_GROWTH);
  }, 300_000);

  it('many huge text fields within the limit: taken by the upstream, none held whole, memory bounded', async () => {
    const FIELDS = 24;
    const FIELD_BYTES = 5 * MiB;
    const { result, peak, after } = await measure(() =>
      Promise.all(
        [1, 2].map(() =>
          sendStreamed(url, {
            method: 'POST',
            path: '/api/v2/products/extraction/enqueue',
            headers: asOperator(),
            body: hugeFields(FIELDS, FIELD_BYTES),
          }),
        ),
      ),
    );
    for (const answer of result) {
      expect(answer.status).toBe(202);
      expect(answer.sent).toBeGreaterThan(FIELDS * FIELD_BYTES);
    }
    console.log(
      `[upload limits, ${engine}] 2 uploads of ${FIELDS} text fields x ${FIELD_BYTES / MiB} MiB at once: ` +
        `server RSS +${(peak / MiB).toFixed(1)} MB at peak, +${(after / MiB).toFixed(1)} MB after`,
    );
    // Before the fields were bounded, each upload held its 120 MiB of fields (64 MB each allowed).
    expect(peak).toBeLessThan(MAX_RSS_GROWTH);
    expect(after).toBeLessThan(MAX_RSS_GROWTH);
  }, 300_000);

  it('a RAG document nested 5,000 deep is refused 422-010 before it is parsed', async () => {
    const before = upstream.requests.length;
    const deep = `{"inference_id":"x","fields":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const answer = await fetch(`${url}/v2/extensions/rag/m-1/documents`, {
      method: 'POST',
      headers: { Authorization: integrationKey, 'Content-Type': 'application/json' },
      body: deep,
    });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ code: '422-010' });
    expect(upstream.requests.length).toBe(before);
  });
});
