/**
 * The HTTP doorway against a real local server (node:http on 127.0.0.1): retries and their waits,
 * cancellation, error bodies, schema checks and the refusal of foreign URLs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  ForeignUrlError,
  NetworkError,
  ProblemDetailsError,
  SchemaMismatchError,
  V1ApiError,
} from './errors';
import { createApiClient, excerpt, type ApiClientOptions, type RetryWait } from './http';
import { onFakeClocks, nextTurn } from './testing/fake-clocks';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { sendJson, serveEach } from './testing/test-server';
import { JobResponse } from '@extraction-review/contract/v2/schemas';

const FAST: ApiClientOptions['retry'] = { limit: 3, baseDelayMs: 10, maxDelayMs: 40, maxRetryAfterMs: 5_000 };
const Ok = z.object({ ok: z.literal(true) });

const serve = serveEach({ retry: FAST });

const job = {
  job: {
    id: '12345678-1234-1234-1234-123456789abc',
    model_id: '87654321-4321-4321-4321-cba987654321',
    filename: 'a.pdf',
    created_at: '2025-07-03T14:27:58.974451',
    status: 'Processing',
    polling_url: '/api/v2/jobs/12345678-1234-1234-1234-123456789abc',
  },
};

describe('a successful call', () => {
  it('sends to the base, with the query, and returns the parsed body', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, job));
    const body = await client.request({
      method: 'GET',
      path: '/v2/jobs/abc',
      query: { redirect: false, skipped: undefined },
      schema: JobResponse,
    });
    expect(server.requests[0]?.url).toBe('/api/v2/jobs/abc?redirect=false');
    // The schema's output: defaults filled, the zoneless timestamp read as UTC.
    expect(body.job.webhooks).toEqual([]);
    expect(body.job.created_at).toBe('2025-07-03T14:27:58.974451Z');
  });
});

describe('retries', () => {
  it('retries a GET after a 503 and a dropped connection', async () => {
    const { server, client } = await serve((req, res, i) => {
      if (i === 0) return sendJson(res, 503, { title: 'Unavailable', detail: 'later' });
      if (i === 1) return void res.socket?.destroy();
      sendJson(res, 200, { ok: true });
    });
    await expect(client.request({ method: 'GET', path: '/x', schema: Ok })).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
  });

  /**
   * The call on fake clocks: told of the wait, the test moves the clocks to the next timer only (the
   * wait's: a GET's 30 s read time-out comes later), so the requests' gap is the wait the client took.
   */
  async function gapOfOneWait(
    handler: Parameters<typeof serve>[0],
  ): Promise<{ gapMs: number; waits: RetryWait[]; requests: number }> {
    return onFakeClocks(async () => {
      const waits: RetryWait[] = [];
      let told!: () => void;
      const waiting = new Promise<void>((resolve) => (told = resolve));
      const { server, client } = await serve(handler, {
        onRetryWait: (wait) => {
          waits.push(wait);
          told();
        },
      });
      const call = client.request({ method: 'GET', path: '/x', schema: Ok });
      await waiting;
      // The wait's timer is set in the same run of promise callbacks that announced it.
      await nextTurn();
      vi.advanceTimersToNextTimer();
      await expect(call).resolves.toEqual({ ok: true });
      const [first, second] = server.requests;
      return { gapMs: (second?.at ?? 0) - (first?.at ?? 0), waits, requests: server.requests.length };
    });
  }

  it('waits for Retry-After in seconds', async () => {
    const { gapMs, waits, requests } = await gapOfOneWait((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, { title: 'Too many requests' }, { 'retry-after': '1' })
        : sendJson(res, 200, { ok: true }),
    );
    expect(waits).toMatchObject([{ status: 429, waitMs: 1_000, retry: 1 }]);
    expect(requests).toBe(2);
    expect(gapMs).toBe(1_000);
  });

  it('waits for Retry-After given as an HTTP date', async () => {
    const { gapMs, waits, requests } = await gapOfOneWait((_req, res, i) =>
      i === 0
        ? sendJson(res, 429, {}, { 'retry-after': new Date(Date.now() + 2_000).toUTCString() })
        : sendJson(res, 200, { ok: true }),
    );
    // The fake clock stands on a whole second, so the date is exactly 2 s ahead.
    expect(waits).toMatchObject([{ status: 429, waitMs: 2_000, retry: 1 }]);
    expect(requests).toBe(2);
    expect(gapMs).toBe(2_000);
  });

  it('retries a POST on 429 only: the request was not processed', async () => {
    const { server, client } = await serve((_req, res, i) =>
      i === 0 ? sendJson(res, 429, {}, { 'retry-after': '0' }) : sendJson(res, 200, { ok: true }),
    );
    await client.request({ method: 'POST', path: '/x', body: { json: { a: 1 } }, schema: Ok });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body.toString()).toBe('{"a":1}');
  });

  it('does not retry a POST after a 500 or a dropped connection', async () => {
    const failing = await serve((_req, res) =>
      sendJson(res, 500, { title: 'Internal error', detail: 'boom' }),
    );
    await expect(failing.client.request({ method: 'POST', path: '/x', schema: Ok })).rejects.toBeInstanceOf(
      ProblemDetailsError,
    );
    expect(failing.server.requests).toHaveLength(1);

    const dropping = await serve((_req, res) => void res.socket?.destroy());
    await expect(dropping.client.request({ method: 'POST', path: '/x', schema: Ok })).rejects.toBeInstanceOf(
      NetworkError,
    );
    expect(dropping.server.requests).toHaveLength(1);
  });

  it('never retries another 4xx', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(res, 404, { title: 'Job not found', detail: 'x' }),
    );
    await expect(client.request({ method: 'GET', path: '/x', schema: Ok })).rejects.toMatchObject({
      status: 404,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the limit, exposing the last Retry-After', async () => {
    const { server, client } = await serve((_req, res) =>
      sendJson(
        res,
        429,
        { title: 'Too many requests', detail: 'Slow down', code: '429-001' },
        { 'retry-after': '0' },
      ),
    );
    const error = await client.request({ method: 'GET', path: '/x', schema: Ok }).catch((e: unknown) => e);
    expect(server.requests).toHaveLength(4);
    expect(error).toBeInstanceOf(ProblemDetailsError);
    expect(error).toMatchObject({ status: 429, code: '429-001', retryAfterSeconds: 0, isRateLimited: true });
  });

  it('does not wait for a Retry-After longer than the policy allows, and says how long it is', async () => {
    // The clock of any wait is a fake one that never moves: a call that waited would not settle.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const waits: RetryWait[] = [];
      const controller = new AbortController();
      const { server, client } = await serve(
        (_req, res) => sendJson(res, 429, {}, { 'retry-after': '120' }),
        {
          // A wait announced is a wait begun: stop the call there, so that the test fails at once.
          onRetryWait: (wait) => {
            waits.push(wait);
            controller.abort(new Error(`waited ${wait.waitMs} ms`));
          },
        },
      );
      const error = await client
        .request({ method: 'GET', path: '/x', schema: Ok, signal: controller.signal })
        .catch((e: unknown) => e);
      expect(waits).toEqual([]);
      expect(server.requests).toHaveLength(1);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 429, retryAfterSeconds: 120 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('times out a GET that gets no answer, and says so', async () => {
    const { server, client } = await serve(() => undefined, {
      readTimeoutMs: 100,
      retry: { ...FAST, limit: 1 },
    });
    const error = await client.request({ method: 'GET', path: '/x', schema: Ok }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ timedOut: true, endpoint: 'GET /api/x' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('cancellation', () => {
  it('stops during a Retry-After wait, without another request', async () => {
    // The wait's clock is a fake one that never moves: only the abort can end the wait.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const waits: RetryWait[] = [];
      const controller = new AbortController();
      const { server, client } = await serve((_req, res) => sendJson(res, 429, {}, { 'retry-after': '3' }), {
        // Told of the wait; aborted once it has begun (its timer is set in the same run of promise
        // callbacks that announced it, before the next turn of the event loop).
        onRetryWait: (wait) => {
          waits.push(wait);
          setImmediate(() => controller.abort());
        },
      });
      let settled: unknown;
      const call = client
        .request({ method: 'GET', path: '/x', schema: Ok, signal: controller.signal })
        .catch((error: unknown) => (settled = error));
      await new Promise((resolve) => controller.signal.addEventListener('abort', resolve, { once: true }));
      // Settled with the 3 s wait still pending on the fake clock: the abort ended it.
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toMatchObject({ name: 'AbortError' });
      await call;
      expect(waits).toMatchObject([{ status: 429, waitMs: 3_000, retry: 1 }]);
      expect(server.requests).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rethrows the signal reason while waiting for the response', async () => {
    const { client } = await serve(() => undefined);
    const controller = new AbortController();
    const reason = new Error('left the page');
    const call = client.request({ method: 'GET', path: '/x', schema: Ok, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(call).rejects.toBe(reason);
  });
});

describe('error bodies', () => {
  it('turns problem details into ProblemDetailsError, with the pointers', async () => {
    const problem = {
      status: 422,
      title: 'Invalid fields in form',
      detail: 'One or more fields failed validation.',
      code: '422-001',
      errors: [{ pointer: '#/model_id', detail: 'model_id must be a valid UUID format' }],
    };
    for (const type of ['application/problem+json', 'application/json']) {
      const { client } = await serve((_req, res) => {
        res.writeHead(422, { 'content-type': type });
        res.end(JSON.stringify(problem));
      });
      const error = await client.request({ method: 'POST', path: '/x', schema: Ok }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProblemDetailsError);
      expect(error).toMatchObject({ ...problem, endpoint: 'POST /api/x' });
      expect((error as Error).message).toBe('Invalid fields in form: One or more fields failed validation.');
    }
  });

  it('turns a v1 error envelope into V1ApiError, also on a 2xx', async () => {
    const v1Body = (statusCode: number) => ({
      api_request: {
        error: { code: 'Forbidden', details: 'mindee/invoices does not support async mode', message: 'Nope' },
        resources: [],
        status: 'failure',
        status_code: statusCode,
        url: 'https://api.mindee.net/v1/products/mindee/invoices/v4/predict_async',
      },
    });
    const { client } = await serve((_req, res, i) => sendJson(res, i === 0 ? 403 : 200, v1Body(403)));
    for (const status of [403, 200]) {
      const error = await client.request({ method: 'POST', path: '/x', schema: Ok }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(V1ApiError);
      expect(error).toMatchObject({ status, statusCode: 403, code: 'Forbidden', apiMessage: 'Nope' });
    }
  });

  it('keeps a v1 error whose details is an object', async () => {
    const { client } = await serve((_req, res) =>
      sendJson(res, 400, {
        api_request: {
          error: { details: { document: ['error message'] } },
          resources: ['document'],
          status: 'success',
          status_code: 400,
          url: 'x',
        },
      }),
    );
    const error = await client.request({ method: 'POST', path: '/x', schema: Ok }).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400, details: { document: ['error message'] } });
  });

  it('reads an HTML 502 page as a short text, not a JSON crash', async () => {
    const htmlFile = path.join(fixturesDir, 'v1', 'errors', 'error_50x.html');
    expect(fs.existsSync(htmlFile), `missing ${htmlFile}`).toBe(true);
    const html = fs.readFileSync(htmlFile, 'utf8');
    const { client } = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(html);
    });
    const error = await client.request({ method: 'POST', path: '/x', schema: Ok }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ProblemDetailsError);
    expect(error).toMatchObject({ status: 502 });
    const text = (error as ApiError).text ?? '';
    expect(text).toMatch(
      /^Error An error occurred\. Sorry, the page you are looking for is currently unavailable/,
    );
    expect(text).not.toMatch(/[<>{}]/);
    expect(text.length).toBeLessThanOrEqual(200);
  });

  it('reports a 2xx body that is not JSON', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>App</title>');
    });
    const error = await client.request({ method: 'GET', path: '/x', schema: Ok }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('Expected JSON from GET /api/x, received text/html');
  });

  it('excerpts HTML without tags, styles or scripts', () => {
    expect(excerpt('<style>p{}</style><script>x()</script><p>Hello&nbsp;<b>you</b></p>')).toBe('Hello you');
    expect(excerpt('x'.repeat(500))).toHaveLength(200);
  });
});

describe('schema mismatches', () => {
  it('names the JSON path and the endpoint, and is not retried', async () => {
    const bad = structuredClone(job) as { job: Record<string, unknown> };
    bad.job.status = 'Queued';
    bad.job.webhooks = [{ id: 'w1', status: 'Processed', attempts_count: -1 }];
    const { server, client } = await serve((_req, res) => sendJson(res, 200, bad));
    const error = await client
      .request({ method: 'GET', path: '/v2/jobs/abc', schema: JobResponse })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaMismatchError);
    const mismatch = error as SchemaMismatchError;
    expect(mismatch.endpoint).toBe('GET /api/v2/jobs/abc');
    expect(mismatch.issues).toEqual([
      {
        path: 'job.status',
        pointer: '#/job/status',
        message: 'expected one of "Processing", "Processed", "Failed", received string "Queued"',
      },
      {
        path: 'job.webhooks[0].attempts_count',
        pointer: '#/job/webhooks/0/attempts_count',
        message: 'expected number >= 0',
      },
    ]);
    expect(mismatch.message).toMatch(/^Unexpected response from GET \/api\/v2\/jobs\/abc: job\.status: /);
    expect(server.requests).toHaveLength(1);
  });
});

describe('URLs from responses', () => {
  it('follows a rewritten same-origin URL under the base', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    await client.request({ method: 'GET', url: '/api/v2/inferences/abc?x=1', schema: Ok });
    await client.request({ method: 'GET', url: `${server.origin}/api/v2/inferences/abc`, schema: Ok });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v2/inferences/abc?x=1',
      '/api/v2/inferences/abc',
    ]);
  });

  it('refuses anything outside the base, without sending a request', async () => {
    const { server, client } = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    for (const url of [
      'https://api-v2.mindee.net/v2/inferences/abc',
      '//evil.example/api/v2/inferences/abc',
      '/v2/inferences/abc',
      '/api/../admin',
      '/api/%2e%2e/admin',
      '/apiary/x',
      'api/v2/inferences/abc',
      `${server.origin.replace('127.0.0.1', 'user:pw@127.0.0.1')}/api/x`,
    ]) {
      await expect(client.request({ method: 'GET', url, schema: Ok }), url).rejects.toBeInstanceOf(
        ForeignUrlError,
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a response that a redirect brought from another origin', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const { client } = await serve((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.server.origin}/api/x` });
      res.end();
    });
    await expect(client.request({ method: 'GET', path: '/x', schema: Ok })).rejects.toBeInstanceOf(
      ForeignUrlError,
    );
  });

  it('needs an absolute base outside a browser', async () => {
    const client = createApiClient();
    await expect(client.request({ method: 'GET', path: '/x', schema: Ok })).rejects.toThrow(
      /absolute baseUrl/,
    );
  });
});
