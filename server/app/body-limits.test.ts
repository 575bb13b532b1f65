/**
 * The attack of issue 18 (3): chunked bodies with no length, hundreds of MB each, sent with no session
 * to every state-changing route of the app server, on both engines. Each is refused without being
 * read: a 413 `413-001` where the route takes a body from anyone (sign-in, set-up, the webhook), the
 * 401/403/404 of its check where that comes first; the connection is closed long before the client
 * has sent it all. The server runs in a child process whose resident memory (VmRSS) is measured
 * before and after: it stays within 100 MB (before the fix, four 500 MB bodies to /api/session took it
 * from 319 MB to 3.45 GB).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { sendChunked, type AttackAnswer } from '@extraction-review/test-kit/app/chunked-attack';
import type {
  ReviewServerMessage,
  ReviewServerOptions,
} from '@extraction-review/test-kit/app/review-server-process';
import { measureServer, nextMessage } from '@extraction-review/test-kit/app/review-server-client';
import { startUpstream, summariseBody, type TestUpstream } from '@extraction-review/test-kit/app/upstream';

const MiB = 1024 * 1024;
const BODY_BYTES = 200 * MiB;
const MAX_RSS_GROWTH = 100 * MiB;

/** Every route that changes state, with the refusal expected from someone with no session. */
const ROUTES: readonly { method: string; path: string; status: number; headers?: Record<string, string> }[] =
  [
    { method: 'POST', path: '/api/session', status: 413 },
    { method: 'POST', path: '/api/setup', status: 413 },
    { method: 'DELETE', path: '/api/session', status: 401 },
    { method: 'POST', path: '/api/operators', status: 401 },
    { method: 'DELETE', path: '/api/operators/00000000-0000-4000-8000-000000000000', status: 401 },
    { method: 'POST', path: '/api/review/next', status: 401 },
    { method: 'PUT', path: '/api/review/documents/d1/corrections', status: 401 },
    { method: 'POST', path: '/api/review/documents/d1/confirm', status: 401 },
    { method: 'POST', path: '/api/review/documents/d1/reject', status: 401 },
    { method: 'POST', path: '/api/review/import', status: 401 },
    { method: 'PUT', path: '/api/review/models/v2/m/settings', status: 401 },
    { method: 'POST', path: '/api/review/deliveries/x/retry', status: 401 },
    { method: 'POST', path: '/api/v2/products/extraction/enqueue', status: 401 },
    { method: 'POST', path: '/api/v1/products/mindee/invoices/v4/predict', status: 401 },
    { method: 'POST', path: '/v2/products/extraction/enqueue', status: 401 },
    { method: 'PUT', path: '/v1/products/mindee/invoices/v4/documents/d1/feedback', status: 401 },
    // Signed with a made-up signature: read up to the webhook's own 16 MiB, then refused.
    { method: 'POST', path: '/hooks/v2', status: 413, headers: { 'X-Signature': 'f'.repeat(64) } },
    { method: 'POST', path: '/api/nowhere', status: 404 },
    { method: 'PATCH', path: '/anything', status: 404 },
  ];

describe.each(ENGINES)('chunked bodies without a session, on %s', (engine) => {
  let store: TestStore;
  let upstream: TestUpstream;
  let child: ChildProcess;
  let url: string;

  const next = <T extends ReviewServerMessage['type']>(type: T) => nextMessage(child, type);
  const measure = <T>(run: () => Promise<T>) => measureServer(child, run);

  const attack = (route: {
    method: string;
    path: string;
    headers?: Record<string, string>;
  }): Promise<AttackAnswer> =>
    sendChunked(url, {
      method: route.method,
      path: route.path,
      // A client that looks same-site, so that the cross-site guard lets it reach the route.
      headers: { Origin: url, 'Sec-Fetch-Site': 'same-origin', ...route.headers },
      bytes: BODY_BYTES,
    });

  beforeAll(async () => {
    store = await openTestStore(engine);
    upstream = await startUpstream(async (req, res) => {
      await summariseBody(req);
      res.writeHead(202, { 'Content-Type': 'application/json' }).end('{}');
    });
    const options: ReviewServerOptions = {
      store: store.settings,
      upstream: { url: upstream.url, apiKey: 'k' },
      webhookSecret: 'whsec',
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
    // Warm up (modules, the store's first queries) so that the baseline includes them.
    for (const route of ROUTES.slice(0, 4)) await sendChunked(url, { ...route, bytes: 2 * MiB });
  }, 60_000);

  afterAll(async () => {
    if (child?.connected) {
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    }
    await upstream?.close();
    await store?.cleanup();
  });

  it('four 200 MB bodies to the sign-in at once: 413 each, read no further, memory within 100 MB', async () => {
    const route = { method: 'POST', path: '/api/session' };
    const { result, peak, after } = await measure(() => Promise.all([1, 2, 3, 4].map(() => attack(route))));
    for (const answer of result) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 413, code: '413-001' });
      expect(answer.sent).toBeLessThan(BODY_BYTES);
    }
    console.log(
      `[body limits, ${engine}] 4 x 200 MB chunked to /api/session: sent ${result.map((a) => Math.round(a.sent / MiB)).join(', ')} MB before the close; ` +
        `server RSS +${(peak / MiB).toFixed(1)} MB at peak, +${(after / MiB).toFixed(1)} MB after`,
    );
    expect(peak).toBeLessThan(MAX_RSS_GROWTH);
    expect(after).toBeLessThan(MAX_RSS_GROWTH);
  }, 120_000);

  it('every state-changing route: refused without reading the body, memory within 100 MB', async () => {
    const { result, peak, after } = await measure(async () => {
      const answers: [string, AttackAnswer][] = [];
      for (const route of ROUTES) answers.push([`${route.method} ${route.path}`, await attack(route)]);
      return answers;
    });
    const statuses = Object.fromEntries(result.map(([route, answer]) => [route, answer.status]));
    expect(statuses).toEqual(Object.fromEntries(ROUTES.map((r) => [`${r.method} ${r.path}`, r.status])));
    for (const [route, answer] of result) {
      // The gateway's /v1 answers in the v1 envelope, as the hosted v1 API does.
      const type = route.includes(' /v1/') ? 'application/json' : 'application/problem+json';
      expect(answer.headers['content-type'], route).toBe(type);
      expect(answer.sent).toBeLessThan(BODY_BYTES);
    }
    const total = result.reduce((sum, [, answer]) => sum + answer.sent, 0);
    console.log(
      `[body limits, ${engine}] ${ROUTES.length} routes, ${Math.round(total / MiB)} MB sent in all before the closes; ` +
        `server RSS +${(peak / MiB).toFixed(1)} MB at peak, +${(after / MiB).toFixed(1)} MB after`,
    );
    expect(peak).toBeLessThan(MAX_RSS_GROWTH);
    expect(after).toBeLessThan(MAX_RSS_GROWTH);
  }, 300_000);

  it('a declared length over the limit is refused before a byte of the body is sent', async () => {
    const { hostname, port } = new URL(url);
    const { default: net } = await import('node:net');
    const socket = net.connect({ host: hostname, port: Number(port) });
    await once(socket, 'connect');
    socket.write(
      `POST /api/session HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${url}\r\nSec-Fetch-Site: same-origin\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${BODY_BYTES}\r\n\r\n`,
    );
    let received = '';
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    await once(socket, 'close');
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('"code":"413-001"');
  });
});
