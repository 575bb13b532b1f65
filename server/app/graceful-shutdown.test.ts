/**
 * SIGTERM to the real server/main.ts (in its own process; issue 19, "Graceful shutdown" and "Shutdown
 * cuts uploads"), its upstream a real node:http server of this test. Asserted on events, never on
 * elapsed time:
 *
 * - readiness is `200`, then `503-002` (shutdown failing) once SIGTERM is logged, while the copy still
 *   answers other requests during the drain, each answer closing its connection;
 * - a 40 MB upload through the gateway, begun before SIGTERM and mostly sent after the copy stopped
 *   accepting connections, reaches the upstream whole (byte count and SHA-256) and its client gets the
 *   `202`; meanwhile an idle keep-alive connection is closed, the event stream is ended, and a new
 *   request gets no answer;
 * - the process then stops its workers, closes the store and exits 0, each step logged (`component: shutdown`);
 * - with DATABASE_URL and no upstream, main refuses to start and says to point every copy at one
 *   upstream; EMBEDDED_REFERENCE_WITH_DATABASE=true starts it with a warning; a second signal exits
 *   at once.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReview } from './review/open-review';
import { createTestDatabase } from '@extraction-review/test-kit/review/test-database';
import { json, rawRequest } from '@extraction-review/test-kit/app/http-client';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import { openSse } from '@extraction-review/test-kit/app/sse-client';
import { componentMessages } from '@extraction-review/test-kit/log-capture';
import {
  summariseBody,
  startUpstream,
  type BodySummary,
  type TestUpstream,
} from '@extraction-review/test-kit/app/upstream';

const MiB = 1024 * 1024;
const UPLOAD_BYTES = 40 * MiB;
const BOUNDARY = 'shutdown-boundary-19';

/** The messages of the process's `shutdown` lines, in order. */
const shutdownMessages = (output: string): string[] => componentMessages(output, 'shutdown');

/** Resolves once the process has printed a line matching `pattern`. */
function printed(main: MainProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const match = pattern.exec(main.output());
      if (match) resolve(match[0]);
      return match !== null;
    };
    if (check()) return;
    const onData = (): void => {
      if (check()) cleanup();
    };
    const onExit = (): void => {
      cleanup();
      if (!check()) reject(new Error(`exited without printing ${String(pattern)}:\n${main.output()}`));
    };
    const cleanup = (): void => {
      main.child.stdout?.off('data', onData);
      main.child.stderr?.off('data', onData);
      main.child.off('exit', onExit);
    };
    main.child.stdout?.on('data', onData);
    main.child.stderr?.on('data', onData);
    main.child.once('exit', onExit);
  });
}

/** A 40 MB multipart upload: head, file part of random bytes, tail. */
function uploadBody(): Buffer {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\nm-1\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n%PDF-1.7\n',
  );
  const filler = Buffer.alloc(UPLOAD_BYTES);
  for (let offset = 0; offset < filler.length; offset += 4)
    filler.writeUInt32LE((offset * 2654435761) >>> 0, offset);
  return Buffer.concat([head, filler, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]);
}

/** The body of a chunked answer, without its framing. */
function unchunk(framed: Buffer): string {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = framed.indexOf('\r\n', offset);
    if (lineEnd === -1) break;
    const size = parseInt(framed.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(framed.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts).toString();
}

interface RawAnswer {
  status: number | undefined;
  body: string;
}

/** Resolves when the socket takes more (or is gone), leaving no listener behind. */
function writable(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

/** A request over its own socket whose body the test writes when it wants to. */
async function openUpload(url: string, key: string, length: number) {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  const answer = new Promise<RawAnswer>((resolve) => {
    const done = (): void => {
      const end = received.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received.toString('latin1'))?.[1]) || undefined;
      const head = end === -1 ? '' : received.subarray(0, end).toString('latin1');
      const rest = end === -1 ? Buffer.alloc(0) : received.subarray(end + 4);
      resolve({
        status,
        body: /\r\ntransfer-encoding:\s*chunked/i.test(head) ? unchunk(rest) : rest.toString(),
      });
    };
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = received.subarray(0, end).toString('latin1');
      const size = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
      const whole =
        size !== undefined
          ? received.length >= end + 4 + Number(size)
          : /\r\ntransfer-encoding:\s*chunked/i.test(head) &&
            received.subarray(end).includes('\r\n0\r\n\r\n');
      if (whole) done();
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
  socket.write(
    `POST /v2/products/extraction/enqueue HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
      `Authorization: ${key}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      `Content-Length: ${length}\r\n\r\n`,
  );
  return {
    answer,
    async send(bytes: Buffer): Promise<void> {
      for (let offset = 0; offset < bytes.length; offset += 256 * 1024) {
        if (!socket.write(bytes.subarray(offset, offset + 256 * 1024))) await writable(socket);
      }
    },
    close: () => socket.destroy(),
  };
}

/** A keep-alive connection that made one request and now sits idle; resolves `closed` when the server closes it. */
async function idleKeepAlive(url: string): Promise<{ closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await once(socket, 'connect');
  const answered = new Promise<void>((resolve) => {
    let text = '';
    socket.on('data', (data: Buffer) => {
      text += data.toString('latin1');
      if (text.includes('"live"')) resolve();
    });
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(
    `GET /api/health/live HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`,
  );
  await answered;
  return { closed };
}

describe('SIGTERM: drain, then let requests in flight finish, then exit 0', () => {
  let dir: string;
  let upstream: TestUpstream;
  let main: MainProcess;
  let integrationKey = '';
  let sessionCookie = '';
  const uploads: Promise<BodySummary>[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'graceful-shutdown-'));
    const review = await openReview({ dataDir: path.join(dir, 'app') });
    integrationKey = (await review.integrations.create({ name: 'Mail robot' }, Date.now())).key;
    const operator = await review.operators.create(
      { name: 'Ada', role: 'operator', passwordHash: null },
      Date.now(),
    );
    sessionCookie = `er_session=${(await review.sessions.create(operator.id, Date.now())).token}`;
    await review.close();

    upstream = await startUpstream(async (req, res) => {
      if (req.method === 'POST' && (req.url ?? '').startsWith('/v2/products/')) {
        const summary = summariseBody(req);
        uploads.push(summary);
        await summary;
        res
          .writeHead(202, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ job: { id: 'j-big' } }));
        return;
      }
      req.resume();
      await once(req, 'end');
      res.writeHead(503, { 'Content-Type': 'application/json' }).end('{}');
    });
    main = await startMainProcess({
      APP_DATA_DIR: path.join(dir, 'app'),
      UPSTREAM_V2_URL: upstream.url,
      UPSTREAM_V2_API_KEY: 'upstream-key',
      UPSTREAM_V1_URL: upstream.url,
      UPSTREAM_V1_API_KEY: 'upstream-key',
      // Long enough for the probes below to be answered within it on a loaded machine; nothing waits for it.
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_GRACE_MS: '120000',
    });
  }, 90_000);

  afterAll(async () => {
    await main?.stop('SIGKILL');
    await upstream?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('drains, lets a 40 MB upload in flight finish whole, ends the rest, exits 0', async () => {
    const ready = await rawRequest(`${main.url}/api/health/ready`);
    expect(ready.status).toBe(200);

    // Before SIGTERM: an upload whose first MiB is sent, an idle keep-alive connection, an event stream.
    const body = uploadBody();
    const upload = await openUpload(main.url, integrationKey, body.length);
    const reachedUpstream = upstream.nextRequest('/v2/products/');
    await upload.send(body.subarray(0, MiB));
    await reachedUpstream;
    const idle = await idleKeepAlive(main.url);
    const stream = await openSse(`${main.url}/api/events`, { Cookie: sessionCookie });
    expect(stream.status).toBe(200);

    const exited = once(main.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    main.child.kill('SIGTERM');
    await printed(main, /"component":"shutdown","msg":"SIGTERM: readiness is 503/);

    // The drain: not ready, still serving, each answer closing its connection.
    const draining = await rawRequest(`${main.url}/api/health/ready`);
    const served = await rawRequest(`${main.url}/api/health`);
    expect(main.output(), 'answered during the drain').not.toContain('drain over');
    expect(draining.status).toBe(503);
    expect(json(draining)).toMatchObject({
      code: '503-002',
      checks: { shutdown: { state: 'failing' }, database: { state: 'ok' } },
    });
    expect(draining.headers.connection).toBe('close');
    expect(served.status).toBe(200);

    // Past the drain: no new connection; the idle one and the event stream are closed.
    await printed(
      main,
      /"component":"shutdown","msg":"drain over: no new connections; 2 request\(s\) in flight/,
    );
    await idle.closed;
    await stream.ended;
    // No new request is served: refused, or reset when the kernel had queued it as the listening
    // socket went (seen on a loaded machine); never answered.
    await expect(rawRequest(`${main.url}/api/health/live`)).rejects.toThrow(
      /ECONNREFUSED|ECONNRESET|socket hang up/,
    );

    // The rest of the upload, sent while the copy shuts down: taken whole, answered.
    await upload.send(body.subarray(MiB));
    const answer = await upload.answer;
    upload.close();
    expect(answer.status).toBe(202);
    expect(JSON.parse(answer.body)).toMatchObject({ job: { id: 'j-big' } });
    const received = await uploads[0];
    expect(received?.bytes).toBe(body.length);
    expect(received?.sha256).toBe(createHash('sha256').update(body).digest('hex'));

    const [code] = await exited;
    expect(code).toBe(0);
    // Each step one JSON line of component `shutdown` (stdout is a pipe).
    const said = shutdownMessages(main.output());
    expect(said).toContain('event streams ended (browsers reconnect elsewhere)');
    expect(said).toContainEqual(
      expect.stringMatching(/^every connection closed: \d+ request\(s\) in flight finished$/),
    );
    expect(said).toContain('the job follower stopped');
    expect(said).toContain('the delivery worker stopped');
    expect(said).toContain('the review store closed');
    expect(said).toContain('done; exiting with 0');
    const log = said.join('\n');
    // In that order.
    const order = [
      'SIGTERM: readiness',
      'drain over',
      'every connection closed',
      'job follower stopped',
      'review store closed',
      'done;',
    ];
    const positions = order.map((line) => log.indexOf(line));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  }, 120_000);
});

describe('one upstream for every copy on a database', () => {
  it('refuses to start with DATABASE_URL and an embedded reference service, saying what to do', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'one-upstream-'));
    try {
      const start = startMainProcess({
        APP_DATA_DIR: dir,
        // Never reached: the refusal comes before the store is opened.
        DATABASE_URL: 'postgres://review@127.0.0.1:9/review',
      });
      const error = await start.then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toContain('exited (1) before listening');
      expect(error?.message).toContain(
        'extraction-review cannot start: DATABASE_URL is set but UPSTREAM_V2_URL and UPSTREAM_V1_URL are not',
      );
      expect(error?.message).toContain('npm run reference');
      expect(error?.message).toContain(
        'UPSTREAM_V2_URL, UPSTREAM_V2_API_KEY, UPSTREAM_V1_URL and UPSTREAM_V1_API_KEY',
      );
      expect(error?.message).toContain('EMBEDDED_REFERENCE_WITH_DATABASE=true');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts with a warning when EMBEDDED_REFERENCE_WITH_DATABASE=true; a second signal exits at once', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'one-upstream-'));
    const database = await createTestDatabase();
    let main: MainProcess | undefined;
    try {
      main = await startMainProcess({
        APP_DATA_DIR: path.join(dir, 'app'),
        REFERENCE_DATA_DIR: path.join(dir, 'reference'),
        DATABASE_URL: database.url,
        EMBEDDED_REFERENCE_WITH_DATABASE: 'true',
        SHUTDOWN_DRAIN_MS: '600000',
      });
      expect(main.output()).toContain('(EMBEDDED_REFERENCE_WITH_DATABASE=true). Run only this one copy');
      expect((await rawRequest(`${main.url}/api/health/ready`)).status).toBe(200);

      const exited = once(main.child, 'exit') as Promise<[number | null]>;
      main.child.kill('SIGTERM');
      await printed(main, /"component":"shutdown","msg":"SIGTERM: readiness is 503/);
      main.child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(1);
      expect(shutdownMessages(main.output())).toContain('SIGTERM again: exiting now');
      expect(main.output()).not.toContain('drain over');
    } finally {
      await main?.stop('SIGKILL');
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
