/**
 * The proxy over real HTTP: a recording upstream (node:http) and the app server, both on port 0.
 */
import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../create-app';
import { listen, type RunningServer } from '../listen';
import { json, rawRequest } from '@extraction-review/test-kit/app/http-client';
import {
  closedPort,
  startUpstream,
  summariseBody,
  type TestUpstream,
} from '@extraction-review/test-kit/app/upstream';

const V2_KEY = 'v2-secret-key';
const V1_KEY = 'v1-secret-key';
const JOB_ID = '12345678-1234-1234-1234-123456789abc';

let upstream: TestUpstream;
let app: RunningServer;
/** Answers `/v2/late` sent: none when the proxy closed the request first. */
let lateAnswers = 0;

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
) {
  const text = JSON.stringify(body).replace('"__BIG_NUMBER__"', '12345678901234567890');
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

beforeAll(async () => {
  upstream = await startUpstream(async (req, res, base) => {
    const path = (req.url ?? '').split('?')[0];
    switch (path) {
      case `/v2/jobs/${JOB_ID}`:
        return sendJson(
          res,
          200,
          {
            job: {
              id: JOB_ID,
              status: 'Processing',
              polling_url: `${base}/v2/jobs/${JOB_ID}`,
              result_url: `${base}/v2/products/extraction/results/${JOB_ID}?x=1`,
              webhooks: [{ id: 'w', links: [`${base}/v2/nested/${JOB_ID}`] }],
              other_host: `http://other.example/v2/jobs/${JOB_ID}`,
              not_at_start: `see ${base}/v2/jobs/${JOB_ID}`,
              not_a_base: `${base}/v20/jobs`,
              [`${base}/v2/key`]: 'keys are not rewritten',
              big: '__BIG_NUMBER__',
            },
          },
          {
            Connection: 'x-hop-res',
            'X-Hop-Res': 'dropped',
            'Keep-Alive': 'timeout=99',
            'Proxy-Authenticate': 'Basic realm="upstream"',
            'Set-Cookie': 'upstream=1',
            'X-Kept': 'kept',
          },
        );
      case '/v2/jobs/done':
        return sendJson(
          res,
          302,
          { job: { status: 'Processed', result_url: `${base}/v2/products/extraction/results/R1` } },
          { Location: `${base}/v2/products/extraction/results/R1` },
        );
      case '/v1/documents/queue/done':
        return sendJson(
          res,
          302,
          { api_request: { url: `${base}/v1/documents/queue/done` }, job: { status: 'completed' } },
          { Location: '/v1/products/mindee/invoices/v4/documents/D1' },
        );
      case '/v1/products/mindee/invoices/v4/predict_async': {
        const body = await summariseBody(req);
        return sendJson(res, 202, {
          api_request: {
            error: {},
            resources: ['job'],
            status: 'success',
            status_code: 202,
            url: `${base}/v1/products/mindee/invoices/v4/predict_async`,
          },
          job: { id: 'J1', status: 'waiting', polling_url: `${base}/v1/documents/queue/J1` },
          received: body.text,
        });
      }
      case '/v1/documents/D1/feedback':
        return sendJson(res, 200, {
          api_request: { url: `https://feedbacks.example/v1/documents/D1/feedback` },
          feedback: {},
        });
      case '/v2/rate-limited': {
        const problem = JSON.stringify({
          status: 429,
          title: 'Too many requests',
          detail: 'Slow down.',
          code: '429-001',
          errors: [],
        });
        res.writeHead(429, { 'Content-Type': 'application/problem+json', 'Retry-After': '7' });
        return void res.end(problem);
      }
      case '/v2/gzip': {
        const body = gzipSync(JSON.stringify({ polling_url: `${base}/v2/jobs/1` }));
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
          'Content-Length': body.length,
        });
        return void res.end(body);
      }
      case '/v2/document.pdf': {
        const pdf = gzipSync(Buffer.from('%PDF-1.7 pretend'));
        if (!/gzip/.test(String(req.headers['accept-encoding']))) {
          res.writeHead(200, { 'Content-Type': 'application/pdf' });
          return void res.end('%PDF-1.7 pretend');
        }
        res.writeHead(200, {
          'Content-Type': 'application/pdf',
          'Content-Encoding': 'gzip',
          'Content-Length': pdf.length,
        });
        return void res.end(pdf);
      }
      case '/v2/too-large': {
        // Answers before reading the upload, then closes the connection, as a size-limited server may.
        const problem = JSON.stringify({
          status: 413,
          title: 'Payload too large',
          detail: 'x',
          code: '413-001',
          errors: [],
        });
        res.writeHead(413, { 'Content-Type': 'application/problem+json', Connection: 'close' });
        res.end(problem, () => req.socket.destroy());
        return;
      }
      case '/v2/stalled-json':
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"job":'); // ... and nothing more
        return;
      case '/v2/late': {
        // Answers after 1.5 s, unless the proxy has given up and closed the request by then.
        const answer = setTimeout(() => {
          lateAnswers += 1;
          sendJson(res, 200, { late: true });
        }, 1500).unref();
        res.once('close', () => clearTimeout(answer));
        return;
      }
      case '/v2/hang':
        return; // Never answers: the cancellation tests cut the client side.
      case '/v2/upload-then-hang':
        req.resume(); // Reads, never answers.
        return;
      default:
        return sendJson(res, 200, { method: req.method, url: req.url });
    }
  });
  app = await listen(
    createApp({
      upstream: { v2: { url: upstream.url, apiKey: V2_KEY }, v1: { url: upstream.url, apiKey: V1_KEY } },
    }),
    { host: '127.0.0.1', port: 0 },
  );
});

afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

describe('key injection and header hygiene', () => {
  it('sends the bare v2 key, drops the browser credentials and hop-by-hop headers, keeps the query', async () => {
    const seen = upstream.nextRequest(`/v2/jobs/${JOB_ID}`);
    const res = await rawRequest(`${app.url}/api/v2/jobs/${JOB_ID}?redirect=false&filter=a%2Fb&empty=`, {
      headers: {
        Authorization: 'Bearer browser-token',
        Cookie: 'session=browser',
        Connection: 'keep-alive, x-hop-req',
        'X-Hop-Req': 'dropped',
        'Keep-Alive': 'timeout=5',
        TE: 'trailers',
        Upgrade: 'example/1',
        'Proxy-Authorization': 'Basic cHJveHk=',
        Origin: 'http://browser.example',
        'X-Kept': 'kept',
        Accept: 'application/json',
      },
    });
    expect(res.status).toBe(200);

    const request = await seen;
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`/v2/jobs/${JOB_ID}?redirect=false&filter=a%2Fb&empty=`);
    expect(request.headers.authorization).toBe(V2_KEY);
    expect(request.headers.host).toBe(new URL(upstream.url).host);
    expect(request.headers['x-kept']).toBe('kept');
    expect(request.headers.accept).toBe('application/json');
    for (const dropped of ['cookie', 'x-hop-req', 'te', 'upgrade', 'proxy-authorization', 'origin']) {
      expect(request.headers, dropped).not.toHaveProperty(dropped);
    }
    expect(request.headers['keep-alive']).toBeUndefined();

    // ... and the same hygiene on the way back.
    expect(res.headers['x-kept']).toBe('kept');
    expect(res.headers).not.toHaveProperty('x-hop-res');
    expect(res.headers).not.toHaveProperty('proxy-authenticate');
    expect(res.headers).not.toHaveProperty('set-cookie');
    expect(res.headers['keep-alive']).not.toBe('timeout=99');
  });

  it('sends v1 requests with "Token <key>" and streams the body through', async () => {
    const seen = upstream.nextRequest('/v1/products/');
    const res = await rawRequest(
      `${app.url}/api/v1/products/mindee/invoices/v4/predict_async?full_text=true`,
      {
        method: 'POST',
        headers: { Authorization: 'Token browser-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ document: 'aGVsbG8gd29ybGQ=' }),
      },
    );
    expect(res.status).toBe(202);
    const request = await seen;
    expect(request.url).toBe('/v1/products/mindee/invoices/v4/predict_async?full_text=true');
    expect(request.headers.authorization).toBe(`Token ${V1_KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(json<{ received: string }>(res).received).toBe(JSON.stringify({ document: 'aGVsbG8gd29ybGQ=' }));
  });
});

describe('in-process use', () => {
  it('works through app.request too, with the body as a web stream', async () => {
    const inProcess = createApp({ upstream: { v1: { url: upstream.url, apiKey: V1_KEY } } });
    const seen = upstream.nextRequest('/v1/products/');
    const res = await inProcess.request('/api/v1/products/mindee/invoices/v4/predict_async', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Token browser' },
      body: '{"document":"x"}',
    });
    expect(res.status).toBe(202);
    expect((await seen).headers.authorization).toBe(`Token ${V1_KEY}`);
    expect(await res.json()).toMatchObject({
      job: { polling_url: '/api/v1/documents/queue/J1' },
      received: '{"document":"x"}',
    });
  });
});

describe('URL rewriting', () => {
  it('rewrites polling_url, result_url and nested URLs of the upstream, and nothing else', async () => {
    const res = await rawRequest(`${app.url}/api/v2/jobs/${JOB_ID}`);
    const body = res.body.toString();
    const { job } = JSON.parse(body) as { job: Record<string, unknown> };
    expect(job.polling_url).toBe(`/api/v2/jobs/${JOB_ID}`);
    expect(job.result_url).toBe(`/api/v2/products/extraction/results/${JOB_ID}?x=1`);
    expect(job.webhooks).toEqual([{ id: 'w', links: [`/api/v2/nested/${JOB_ID}`] }]);
    expect(job.other_host).toBe(`http://other.example/v2/jobs/${JOB_ID}`);
    expect(job.not_at_start).toBe(`see ${upstream.url}/v2/jobs/${JOB_ID}`);
    expect(job.not_a_base).toBe(`${upstream.url}/v20/jobs`);
    expect(job[`${upstream.url}/v2/key`]).toBe('keys are not rewritten');
    // Numbers are kept as the upstream wrote them, even past what a double holds.
    expect(body).toContain('"big":12345678901234567890');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
  });

  it('rewrites v1 api_request.url and job.polling_url', async () => {
    const res = await rawRequest(`${app.url}/api/v1/products/mindee/invoices/v4/predict_async`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const body = json<{ api_request: { url: string }; job: { polling_url: string } }>(res);
    expect(body.api_request.url).toBe('/api/v1/products/mindee/invoices/v4/predict_async');
    expect(body.job.polling_url).toBe('/api/v1/documents/queue/J1');
  });

  it('leaves a URL on another host of the API untouched (v1 feedback)', async () => {
    const res = await rawRequest(`${app.url}/api/v1/documents/D1/feedback`, {
      method: 'PUT',
      body: '{"feedback":{}}',
    });
    expect(json<{ api_request: { url: string } }>(res).api_request.url).toBe(
      'https://feedbacks.example/v1/documents/D1/feedback',
    );
  });

  it('passes a 302 through without following it, Location and JSON body rewritten', async () => {
    const res = await rawRequest(`${app.url}/api/v2/jobs/done`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/api/v2/products/extraction/results/R1');
    expect(json<{ job: { result_url: string } }>(res).job.result_url).toBe(
      '/api/v2/products/extraction/results/R1',
    );
    expect(
      upstream.requests.filter((r) => r.url.startsWith('/v2/products/extraction/results/R1')),
    ).toHaveLength(0);
  });

  it('resolves a relative v1 Location against the upstream before rewriting it', async () => {
    const res = await rawRequest(`${app.url}/api/v1/documents/queue/done`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/api/v1/products/mindee/invoices/v4/documents/D1');
    expect(json<{ api_request: { url: string } }>(res).api_request.url).toBe('/api/v1/documents/queue/done');
  });

  it('decodes a gzip answer, rewrites it and sends it with a correct length', async () => {
    const res = await rawRequest(`${app.url}/api/v2/gzip`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(json(res)).toEqual({ polling_url: '/api/v2/jobs/1' });
  });
});

describe('content encoding', () => {
  it('passes a non-JSON body through still encoded when the browser accepts the coding', async () => {
    const seen = upstream.nextRequest('/v2/document.pdf');
    const res = await rawRequest(`${app.url}/api/v2/document.pdf`, {
      headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    });
    expect((await seen).headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe('%PDF-1.7 pretend');
  });

  it('asks the upstream for identity when the browser accepts no coding the proxy can read', async () => {
    const seen = upstream.nextRequest('/v2/document.pdf');
    const res = await rawRequest(`${app.url}/api/v2/document.pdf`, {
      headers: { 'Accept-Encoding': 'zstd' },
    });
    expect((await seen).headers['accept-encoding']).toBe('identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString()).toBe('%PDF-1.7 pretend');
  });
});

describe('upstream errors', () => {
  it('passes on an answer the upstream gives before reading the whole upload', async () => {
    const res = await rawRequest(`${app.url}/api/v2/too-large`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: Buffer.alloc(8 * 1024 * 1024, 1),
    }).catch((error: unknown) => error as Error);
    // A race, as with any HTTP/1.1 client: the 413 arrives, or the upstream's reset while the body
    // is still being written comes first (502-001), or the browser's own upload is cut. Whatever
    // happens, the server answers the next request.
    if (!(res instanceof Error)) {
      expect([413, 502]).toContain(res.status);
      expect(json<{ code: string }>(res).code).toBe(res.status === 413 ? '413-001' : '502-001');
      // The rest of the upload is not wanted: the connection closes after the answer.
      expect(res.headers.connection).toBe('close');
    }
    const health = await rawRequest(`${app.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('passes a 429 through with Retry-After and the problem body', async () => {
    const res = await rawRequest(`${app.url}/api/v2/rate-limited`);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(json(res)).toEqual({
      status: 429,
      title: 'Too many requests',
      detail: 'Slow down.',
      code: '429-001',
      errors: [],
    });
  });

  it('answers 502-001 when the upstream is down', async () => {
    const port = await closedPort();
    const down = await listen(
      createApp({ upstream: { v2: { url: `http://127.0.0.1:${port}`, apiKey: 'k' } } }),
      {
        host: '127.0.0.1',
        port: 0,
      },
    );
    try {
      const res = await rawRequest(`${down.url}/api/v2/jobs/1`);
      expect(res.status).toBe(502);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(json(res)).toMatchObject({ status: 502, code: '502-001', title: 'Upstream unreachable' });
      expect(json<{ detail: string }>(res).detail).toContain('ECONNREFUSED');
    } finally {
      await down.close();
    }
  });

  it('answers 502-002 for a version without upstream', async () => {
    const onlyV2 = await listen(createApp({ upstream: { v2: { url: upstream.url, apiKey: V2_KEY } } }), {
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const res = await rawRequest(`${onlyV2.url}/api/v1/documents/queue/J1`);
      expect(res.status).toBe(502);
      expect(json(res)).toMatchObject({ code: '502-002', title: 'Upstream not configured' });
    } finally {
      await onlyV2.close();
    }
  });

  it('answers 504-001 when the upstream does not answer in time', async () => {
    const impatient = await listen(
      createApp({ upstream: { v2: { url: upstream.url, apiKey: V2_KEY } }, upstreamTimeoutMs: 200 }),
      { host: '127.0.0.1', port: 0 },
    );
    try {
      const seen = upstream.nextRequest('/v2/late');
      const res = await rawRequest(`${impatient.url}/api/v2/late`);
      expect(res.status).toBe(504);
      // Its own 200 ms time-out, not another limit, and the upstream request was given up: closed by
      // the proxy before the upstream's answer (which would have been a 200) was sent.
      expect(json(res)).toMatchObject({
        code: '504-001',
        title: 'Upstream timed out',
        detail: expect.stringContaining('(no answer within 0.2 s)'),
      });
      await (
        await seen
      ).closed;
      expect(lateAnswers).toBe(0);
    } finally {
      await impatient.close();
    }
  });
});

describe('silent upstream', () => {
  it('answers 504-001 when the upstream goes silent in the middle of a JSON answer', async () => {
    const impatient = await listen(
      createApp({ upstream: { v2: { url: upstream.url, apiKey: V2_KEY } }, upstreamIdleTimeoutMs: 200 }),
      { host: '127.0.0.1', port: 0 },
    );
    try {
      const res = await rawRequest(`${impatient.url}/api/v2/stalled-json`);
      expect(res.status).toBe(504);
      expect(json(res)).toMatchObject({ code: '504-001' });
    } finally {
      await impatient.close();
    }
  });
});

describe('cancellation', () => {
  it('closes the upstream request when the browser goes away while waiting', async () => {
    const seen = upstream.nextRequest('/v2/hang');
    const client = http.request(`${app.url}/api/v2/hang`);
    client.on('error', () => {});
    client.end();
    const request = await seen;
    client.destroy();
    // No bound of our own: the test's time-out is the guard against a hang, not a speed check.
    await expect(request.closed).resolves.toBeDefined();
  });

  it('closes the upstream request when the browser goes away during an upload', async () => {
    const seen = upstream.nextRequest('/v2/upload-then-hang');
    const client = http.request(`${app.url}/api/v2/upload-then-hang`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': 10 * 1024 * 1024 },
    });
    client.on('error', () => {});
    client.write(Buffer.alloc(256 * 1024, 1));
    const request = await seen;
    client.destroy();
    await expect(request.closed).resolves.toEqual({ complete: false });
  });
});

describe('the API surface', () => {
  it('reports the upstreams in /api/health, without keys', async () => {
    const res = await rawRequest(`${app.url}/api/health`);
    expect(res.status).toBe(200);
    expect(json(res)).toEqual({ status: 'ok', upstream: { v2: upstream.url, v1: upstream.url } });
    expect(res.body.toString()).not.toContain(V2_KEY);
  });

  it('answers 404 problems for unknown /api routes', async () => {
    for (const path of ['/api', '/api/', '/api/nope', '/api/v3/jobs']) {
      const res = await rawRequest(`${app.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(json(res), path).toMatchObject({ status: 404, code: '404-015' });
    }
  });
});
