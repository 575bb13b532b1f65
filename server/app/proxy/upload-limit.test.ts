/**
 * The proxy's request body limit and the recording's back-pressure, over real HTTP (issue 18, item
 * 3): a proxy with a 1 MiB limit in front of a real upstream (node:http) that counts what reaches it.
 * A chunked body over the limit is a 413 `413-001` and the upstream receives at most the limit; a
 * declared length over it never reaches the upstream; an answer already begun is cut. A recording
 * sink slower than the upload holds no more than its high-water mark and a chunk, and loses nothing.
 */
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '@extraction-review/contract/problem';
import { renderError } from '@extraction-review/server-kit/problem-response';
import { listen, type RunningServer } from '../listen';
import { sendChunked } from '@extraction-review/test-kit/app/chunked-attack';
import { startUpstream, summariseBody, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { createProxyHandler, type ExchangeRecorder } from './create-proxy';
import { createUrlRewriter } from './rewrite-urls';

const MiB = 1024 * 1024;
const LIMIT = MiB;

/** What the upstream received of each request: bytes, and whether it came whole. */
const received: { bytes: number; complete: boolean }[] = [];
/** How the upstream answers the next request. */
let mode: 'read-then-answer' | 'answer-at-once' = 'read-then-answer';

let upstream: TestUpstream;
let recorder: ExchangeRecorder | undefined;
let proxy: RunningServer;

beforeAll(async () => {
  upstream = await startUpstream(async (req, res) => {
    const entry = { bytes: 0, complete: false };
    received.push(entry);
    req.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
    req.once('end', () => (entry.complete = true));
    if (mode === 'answer-at-once') {
      // The answer begins before the upload is read: a stream that never ends on its own.
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.write('x'.repeat(1024));
      req.resume();
      return;
    }
    await summariseBody(req).catch(() => undefined);
    if (!res.destroyed) res.writeHead(202, { 'Content-Type': 'application/json' }).end('{"job":{"id":"j"}}');
  });
  const app = new Hono();
  app.all(
    '/api/v2/*',
    createProxyHandler({
      version: 'v2',
      upstream: { url: upstream.url, apiKey: 'k' },
      rewriter: createUrlRewriter([]),
      headersTimeoutMs: 60_000,
      idleTimeoutMs: 60_000,
      maxJsonRewriteBytes: MiB,
      maxRequestBytes: LIMIT,
      recorder: { begin: (c) => recorder?.begin(c) },
    }),
  );
  app.onError(renderError);
  proxy = await listen(app, { host: '127.0.0.1', port: 0 });
});

afterEach(() => {
  mode = 'read-then-answer';
  recorder = undefined;
});

afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
});

describe('the request body limit', () => {
  it('a chunked body over the limit: 413-001, and the upstream receives at most the limit', async () => {
    const before = received.length;
    const answer = await sendChunked(proxy.url, {
      method: 'POST',
      path: '/api/v2/products/extraction/enqueue',
      bytes: 64 * MiB,
      chunkBytes: 64 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: '413-001' });
    expect(answer.sent).toBeLessThan(64 * MiB);
    const reached = received.slice(before);
    expect(reached).toHaveLength(1);
    await upstream.requests.at(-1)?.closed;
    expect(reached[0]?.bytes).toBeLessThanOrEqual(LIMIT);
    expect(reached[0]?.complete).toBe(false);
  });

  it('a body at the limit passes whole', async () => {
    const before = received.length;
    const answer = await sendChunked(proxy.url, {
      method: 'POST',
      path: '/api/v2/products/extraction/enqueue',
      bytes: LIMIT,
      chunkBytes: 64 * 1024,
    });
    expect(answer.status).toBe(202);
    expect(received.slice(before)).toEqual([{ bytes: LIMIT, complete: true }]);
  });

  it('a declared length over the limit is refused before the upstream is called', async () => {
    const before = upstream.requests.length;
    const { hostname, port } = new URL(proxy.url);
    const socket = net.connect({ host: hostname, port: Number(port) });
    await once(socket, 'connect');
    socket.write(
      `POST /api/v2/products/extraction/enqueue HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${64 * MiB}\r\n\r\n`,
    );
    let text = '';
    socket.on('data', (data: Buffer) => {
      text += data.toString('latin1');
      if (text.includes('"413-001"')) socket.destroy();
    });
    await once(socket, 'close');
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(upstream.requests.length).toBe(before);
  });

  it('past the limit after the upstream began its answer: the connection is cut', async () => {
    mode = 'answer-at-once';
    const before = received.length;
    const answer = await sendChunked(proxy.url, {
      method: 'POST',
      path: '/api/v2/products/extraction/enqueue',
      bytes: 64 * MiB,
      chunkBytes: 64 * 1024,
    });
    // The answer's head arrived (200), then the connection closed before its end.
    expect(answer.status).toBe(200);
    expect(answer.sent).toBeLessThan(64 * MiB);
    await upstream.requests.at(-1)?.closed;
    expect(received[before]?.bytes).toBeLessThanOrEqual(LIMIT);
  });
});

describe('an upload its screen refuses', () => {
  /** A recording whose screen refuses every body at its first byte, as a polyglot is refused. */
  const refusing = (): ExchangeRecorder => ({
    begin: () => ({
      body: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
      answered: () => undefined,
      failed: () => undefined,
      screen: {
        limit: 64 * 1024,
        check: async (head) => {
          await once(head, 'data');
          throw new ProblemError('422-011', 'not a document', {
            errors: [{ pointer: '#/file', detail: 'not a document' }],
          });
        },
      },
    }),
  });

  it('is read to its end, then refused, on a connection kept open, when within the limit', async () => {
    recorder = refusing();
    const before = upstream.requests.length;
    const answer = await sendChunked(proxy.url, {
      method: 'POST',
      path: '/api/v2/products/extraction/enqueue',
      bytes: LIMIT - 64 * 1024,
      chunkBytes: 16 * 1024,
    });
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toMatchObject({ code: '422-011' });
    expect(answer.sent).toBe(LIMIT - 64 * 1024);
    expect(answer.headers.connection).not.toBe('close');
    expect(upstream.requests.length).toBe(before);
  });

  it('over the limit while it is read: 413-001, the rest not read', async () => {
    recorder = refusing();
    const before = upstream.requests.length;
    const answer = await sendChunked(proxy.url, {
      method: 'POST',
      path: '/api/v2/products/extraction/enqueue',
      bytes: 64 * MiB,
      chunkBytes: 64 * 1024,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: '413-001' });
    expect(answer.sent).toBeLessThan(64 * MiB);
    expect(upstream.requests.length).toBe(before);
  });
});

describe('a recording slower than the upload', () => {
  it('holds at most its high-water mark and a chunk, and loses nothing', async () => {
    const HIGH_WATER = 64 * 1024;
    let copied = 0;
    let mostHeld = 0;
    const copyHash = createHash('sha256');
    let pending = 0;
    let finished: Promise<unknown> = Promise.resolve();
    recorder = {
      begin: () => {
        // A sink that takes each chunk only after a few turns of the event loop: far slower than
        // a loopback upload.
        const sink = new Writable({
          highWaterMark: HIGH_WATER,
          write(chunk: Buffer, _encoding, callback) {
            // What waits in the sink's buffer, this chunk included.
            mostHeld = Math.max(mostHeld, this.writableLength);
            copied += chunk.length;
            copyHash.update(chunk);
            pending += 1;
            const later = (turns: number) =>
              turns === 0
                ? (pending--, callback())
                : setImmediate(() => {
                    later(turns - 1);
                  });
            later(20);
          },
        });
        finished = once(sink, 'finish');
        return { body: sink, answered: () => undefined, failed: () => sink.destroy() };
      },
    };
    const before = received.length;
    const answer = await sendChunked(proxy.url, {
      method: 'POST',
      path: '/api/v2/products/extraction/enqueue',
      bytes: LIMIT,
      chunkBytes: 16 * 1024,
    });
    expect(answer.status).toBe(202);
    expect(received[before]).toEqual({ bytes: LIMIT, complete: true });
    await finished;
    expect(copied).toBe(LIMIT);
    expect(copyHash.digest('hex')).toBe(createHash('sha256').update(Buffer.alloc(LIMIT, 0x20)).digest('hex'));
    expect(pending).toBe(0);
    // Without the back-pressure the sink held the whole upload (1 MiB here) while the upstream took it.
    expect(mostHeld).toBeLessThanOrEqual(HIGH_WATER + 64 * 1024);
  });
});
