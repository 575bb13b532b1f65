/**
 * Request ids and access lines over real HTTP, with the review API signed in: every answer carries
 * `X-Request-Id` (a trusted proxy's kept, anybody else's replaced), every problem body its
 * `request_id`, every request one access line with its fields; and the lines, all JSON, never hold a
 * password, a session cookie or a CSRF token. The lines are captured through the logger's destination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  memoryDestination,
  rootLogger,
  useRootLogger,
  type Logger,
} from '@extraction-review/server-kit/logger';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import {
  addOperators,
  expectProblem,
  signedIn,
  TEST_PASSWORD,
  type ReviewBrowser,
} from '@extraction-review/test-kit/review/review-browser';
import { createApp } from './create-app';
import { listen, type RunningServer } from './listen';
import { mountReview } from './review/http/mount-review';
import { openReview, type OpenedReview } from './review/open-review';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const T0 = Date.UTC(2026, 0, 5, 9);

const lines = memoryDestination();
/** Every module's lines and the access lines, into `lines`. */
const logger = createLogger({ format: 'json', level: 'debug', destination: lines });
let before: Logger;
let store: TestStore;
let review: OpenedReview;
/** Behind a proxy on loopback (TRUST_PROXY=loopback), and with no proxy trusted. */
let proxied: RunningServer;
let direct: RunningServer;
let ada: ReviewBrowser;
let adaId: string;

beforeAll(async () => {
  store = await openTestStore('sqlite');
  before = rootLogger();
  useRootLogger(logger);
  review = await openReview({ ...store.settings, clock: { now: () => T0 } });
  const app = (trustProxy: string[]) =>
    createApp({ upstream: {}, staticDir: null, review: mountReview(review), logger, hosts: { trustProxy } });
  proxied = await listen(app(['loopback']), { host: '127.0.0.1', port: 0 });
  direct = await listen(app([]), { host: '127.0.0.1', port: 0 });
  adaId = (await addOperators(review, { Ada: 'admin' }, T0)).Ada ?? '';
  ada = await signedIn(direct.url, 'Ada');
});

afterAll(async () => {
  await proxied.close();
  await direct.close();
  await review.close();
  await store.cleanup();
  useRootLogger(before);
});

/** The access line of the request with this id. */
function accessLine(id: string | null): Record<string, unknown> | undefined {
  return lines.records().find((line) => line.request_id === id && line.status !== undefined);
}

describe('the request id', () => {
  it('is made for each request and answered in X-Request-Id', async () => {
    const one = await fetch(`${direct.url}/api/health`);
    const two = await fetch(`${direct.url}/api/health`);
    expect(one.headers.get('x-request-id')).toMatch(UUID);
    expect(two.headers.get('x-request-id')).toMatch(UUID);
    expect(one.headers.get('x-request-id')).not.toBe(two.headers.get('x-request-id'));
  });

  it("is a trusted proxy's own when it sends a well-formed one", async () => {
    const response = await fetch(`${proxied.url}/api/health`, {
      headers: { 'X-Request-Id': 'edge-7f3a.01:b_2' },
    });
    expect(response.headers.get('x-request-id')).toBe('edge-7f3a.01:b_2');
  });

  it('is made anew for anybody else, and for a malformed one', async () => {
    const untrusted = await fetch(`${direct.url}/api/health`, { headers: { 'X-Request-Id': 'edge-7f3a' } });
    expect(untrusted.headers.get('x-request-id')).toMatch(UUID);
    for (const bad of ['has spaces in it', 'x'.repeat(129), 'quote"d', 'new\tline']) {
      const response = await fetch(`${proxied.url}/api/health`, { headers: { 'X-Request-Id': bad } });
      expect(response.headers.get('x-request-id'), bad).toMatch(UUID);
    }
  });

  it('is in every problem body as request_id, thrown or returned', async () => {
    // Returned by the session check, thrown by a route, answered by the not-found handler.
    for (const [path, status, code] of [
      ['/api/review/documents', 401, '401-011'],
      ['/api/nothing-here', 404, '404-015'],
    ] as const) {
      const response = await fetch(`${direct.url}${path}`);
      const body = await expectProblem(response, status, code);
      expect(body.request_id, path).toBe(response.headers.get('x-request-id'));
    }
    const missing = await ada.send('GET', '/api/review/documents/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { request_id?: string }).request_id).toBe(
      missing.headers.get('x-request-id'),
    );
  });
});

describe('an upstream configured with user-info in its URL', () => {
  it('never has it, nor its key, in a line, even when the call fails on it', async () => {
    const upstream = { url: 'http://mindee-user:s3cr3t-pass@127.0.0.1:9', apiKey: 'upstream-key-8812' };
    const server = await listen(createApp({ upstream: { v2: upstream }, staticDir: null, logger }), {
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const response = await fetch(`${server.url}/api/v2/models`);
      expect(response.status).toBeGreaterThanOrEqual(500);
      const id = response.headers.get('x-request-id');
      expect(accessLine(id)).toMatchObject({ route: '/api/v2/*' });
      // What the proxy said of it carries the request's id too (withLogFields).
      expect(lines.records()).toContainEqual(
        expect.objectContaining({ level: 'warn', component: 'proxy', request_id: id }),
      );
    } finally {
      await server.close();
    }
    const all = lines.lines.join('\n');
    expect(all).not.toContain('s3cr3t-pass');
    expect(all).not.toContain('mindee-user');
    expect(all).not.toContain('upstream-key-8812');
  });
});

describe('the access line', () => {
  it('says method, route pattern, status, duration, bytes and who, never a body', async () => {
    const response = await ada.send('GET', '/api/review/documents/00000000-0000-4000-8000-000000000000');
    await response.arrayBuffer();
    const line = accessLine(response.headers.get('x-request-id'));
    expect(line).toMatchObject({
      level: 'info',
      component: 'http',
      method: 'GET',
      route: '/api/review/documents/:id',
      status: 404,
      duration_ms: expect.any(Number),
      operator_id: adaId,
      msg: 'GET /api/review/documents/:id 404',
    });
    expect(line?.time).toEqual(expect.any(String));
    expect(JSON.stringify(line)).not.toContain('00000000-0000-4000-8000-000000000000');
  });

  it('has the bytes when the answer says its length', async () => {
    const response = await fetch(`${direct.url}/api/nothing-here`);
    const body = await response.arrayBuffer();
    expect(accessLine(response.headers.get('x-request-id'))).toMatchObject({ bytes: body.byteLength });
  });

  it('is at debug for health checks', async () => {
    const response = await fetch(`${direct.url}/api/health/live`);
    expect(accessLine(response.headers.get('x-request-id'))).toMatchObject({ level: 'debug', status: 200 });
  });

  it('goes with every other line as JSON with time, level, msg, and no secret in any', async () => {
    // A failed sign-in with a password, and Ada's session cookie and CSRF token sent above.
    const wrong = await fetch(`${direct.url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: direct.url, 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify({ name: 'Ada', password: 'not-the-password-0451' }),
    });
    expect(wrong.status).toBe(401);
    const records = lines.records();
    expect(records.length).toBeGreaterThan(10);
    for (const record of records)
      expect(record).toMatchObject({
        time: expect.any(String),
        level: expect.any(String),
        msg: expect.any(String),
      });
    const all = lines.lines.join('\n');
    const cookieValue = ada.cookie?.split('=')[1] ?? '';
    expect(cookieValue.length).toBeGreaterThan(10);
    for (const secret of [TEST_PASSWORD, 'not-the-password-0451', cookieValue, ada.csrf ?? 'csrf'])
      expect(all).not.toContain(secret);
  });
});
