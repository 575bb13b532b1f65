/**
 * The app server closed to other web sites, over real HTTP, as an attacker's page would try it:
 *
 * - a state-changing request under /api/ from another origin (`Origin` foreign or `null`,
 *   `Sec-Fetch-Site: cross-site`) is refused with 403 and never reaches the upstream;
 * - a request whose `Host` is a foreign name (DNS rebinding) gets 421 on pages, /api/*, /api/events
 *   and /hooks/*, whatever its method;
 * - behind a trusted proxy the forwarded host is the one checked; from an untrusted peer it is ignored;
 * - no `Access-Control-*` header ever leaves /api/, and preflights stay here;
 *
 * and the same requests from the app's own origin and host, or from a script sending neither `Origin`
 * nor `Sec-Fetch-Site`, go through as before.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { signPayload } from '@extraction-review/server-kit/webhook-signature';
import { createApp, type AppOptions } from './create-app';
import { AppEventHub } from './events/app-event-hub';
import { listen, type RunningServer } from './listen';
import { json, rawRequest, type RawResponse } from '@extraction-review/test-kit/app/http-client';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';

const SECRET = 'whsec-host-and-origin';
const HOOK_ID = '0d3c2b1a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const ENQUEUE = '/api/v2/products/extraction/enqueue';

let upstream: TestUpstream;
let staticDir: string;
const servers: RunningServer[] = [];
const hubs: AppEventHub[] = [];

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    req.resume();
    req.on('end', () => {
      // As a hosted API might: allow any origin. None of it may reach the browser.
      res.writeHead(req.method === 'POST' ? 202 : 200, {
        'Content-Type': 'application/json',
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Expose-Headers': 'Location',
      });
      res.end(JSON.stringify({ job: { id: 'job-1', status: 'Processing' } }));
    });
  });
  staticDir = await mkdtemp(path.join(os.tmpdir(), 'host-origin-static-'));
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
});

afterAll(async () => {
  for (const hub of hubs) hub.close();
  await Promise.all(servers.map((s) => s.close()));
  await upstream.close();
  await rm(staticDir, { recursive: true, force: true });
});

async function appServer(hosts?: AppOptions['hosts']): Promise<RunningServer> {
  const events = new AppEventHub();
  hubs.push(events);
  const server = await listen(
    createApp({
      upstream: { v2: { url: upstream.url, apiKey: 'k2' }, v1: { url: upstream.url, apiKey: 'k1' } },
      staticDir,
      webhooks: { v2: { secret: SECRET, ids: [HOOK_ID] } },
      events,
      hosts,
    }),
    { host: '127.0.0.1', port: 0 },
  );
  servers.push(server);
  return server;
}

const portOf = (server: RunningServer) => new URL(server.url).port;

function send(
  server: RunningServer,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return rawRequest(`${server.url}${pathname}`, {
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
  });
}

/** Sends a POST and reports whether the upstream saw it. */
async function postReachesUpstream(
  server: RunningServer,
  headers: Record<string, string>,
  pathname = ENQUEUE,
  method = 'POST',
): Promise<{ response: RawResponse; reached: boolean }> {
  const before = upstream.requests.length;
  const body = '--x\r\nContent-Disposition: form-data; name="model_id"\r\n\r\nm\r\n--x--\r\n';
  const response = await send(server, pathname, {
    method,
    headers: {
      'Content-Type': 'multipart/form-data; boundary=x',
      'Content-Length': String(Buffer.byteLength(body)),
      ...headers,
    },
    body,
  });
  return { response, reached: upstream.requests.length > before };
}

function expectProblem(response: RawResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json');
  const problem = ErrorResponse.parse(json(response));
  expect(problem).toMatchObject({ status, code });
  return problem;
}

describe('state-changing requests from other sites', () => {
  let app: RunningServer;
  let own: string;
  beforeAll(async () => {
    app = await appServer();
    own = app.url;
  });

  it.each([
    ['a foreign Origin', { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' }],
    ['another port on the same address', { Origin: 'http://127.0.0.1:9', 'Sec-Fetch-Site': 'same-site' }],
    ['Origin: null (a sandboxed frame, a data: page)', { Origin: 'null' }],
    ['Sec-Fetch-Site: cross-site without Origin', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site without Origin', { 'Sec-Fetch-Site': 'same-site' }],
    ['the right host under another scheme', { Origin: 'https://127.0.0.1' }],
  ])('refuses %s with 403, before the upstream', async (_name, headers) => {
    const { response, reached } = await postReachesUpstream(app, headers);
    const problem = expectProblem(response, 403, '403-003');
    expect(problem.title).toBe('Cross-site request refused');
    expect(problem.detail).toContain('PUBLIC_URL');
    expect(reached).toBe(false);
  });

  it('refuses every state-changing method, v1 as well as v2', async () => {
    for (const [method, pathname] of [
      ['PUT', '/api/v1/documents/d/feedback'],
      ['PATCH', '/api/v1/documents/d/feedback'],
      ['DELETE', '/api/v2/jobs/j'],
      ['POST', '/api/v1/products/mindee/invoices/v4/predict'],
    ] as const) {
      const { response, reached } = await postReachesUpstream(
        app,
        { Origin: 'http://evil.example' },
        pathname,
        method,
      );
      expectProblem(response, 403, '403-003');
      expect(reached).toBe(false);
    }
  });

  it('lets the app itself through: its own Origin and Sec-Fetch-Site: same-origin', async () => {
    const { response, reached } = await postReachesUpstream(app, {
      Origin: own,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(response.status).toBe(202);
    expect(reached).toBe(true);
    // The origin as a browser writes it for localhost too, when the app is opened there.
    const viaLocalhost = await postReachesUpstream(app, {
      Host: `localhost:${portOf(app)}`,
      Origin: `http://localhost:${portOf(app)}`,
    });
    expect(viaLocalhost.response.status).toBe(202);
  });

  it('lets a script through that sends neither Origin nor Sec-Fetch-Site', async () => {
    const { response, reached } = await postReachesUpstream(app, {});
    expect(response.status).toBe(202);
    expect(reached).toBe(true);
  });

  it('leaves reads to the Host check: a GET with a foreign Origin is answered, without CORS headers', async () => {
    const response = await send(app, '/api/v2/jobs/job-1', { headers: { Origin: 'http://evil.example' } });
    expect(response.status).toBe(200);
    expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it("keeps the webhook receiver's own rule: a signed call from anywhere is accepted", async () => {
    const body = JSON.stringify({
      inference_id: '7a0e4c1b-2d3f-4e5a-9b6c-8d7e6f5a4b3c',
      error: { status: 500, title: 'Processing failed', detail: 'x', code: '500-002', errors: [] },
    });
    const response = await send(app, '/hooks/v2', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Signature': signPayload(SECRET, body),
        Origin: 'http://evil.example',
        'Sec-Fetch-Site': 'cross-site',
      },
      body,
    });
    expect(response.status).toBe(204);
    const forged = await send(app, '/hooks/v2', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Signature': signPayload('wrong', body) },
      body,
    });
    expectProblem(forged, 401, '401-010');
  });
});

describe('the Host check (DNS rebinding)', () => {
  let app: RunningServer;
  beforeAll(async () => {
    app = await appServer();
  });

  it.each(['/', '/jobs/123', '/api/health', '/api/app-config', '/api/v2/jobs/job-1', '/api/events'])(
    'refuses a foreign Host on %s with 421',
    async (pathname) => {
      const before = upstream.requests.length;
      const response = await send(app, pathname, { headers: { Host: `evil.example:${portOf(app)}` } });
      const problem = expectProblem(response, 421, '421-001');
      expect(problem.title).toBe('Host not allowed');
      expect(problem.detail).toContain(`"evil.example:${portOf(app)}"`);
      expect(problem.detail).toContain('ALLOWED_HOSTS');
      expect(problem.detail).toContain('PUBLIC_URL');
      expect(problem.detail).toContain('TRUST_PROXY');
      expect(upstream.requests.length).toBe(before);
    },
  );

  it('refuses a foreign Host on /hooks/v2 and on state-changing requests, even from its own origin', async () => {
    const hook = await send(app, '/hooks/v2', {
      method: 'POST',
      headers: { Host: 'evil.example', 'Content-Type': 'application/json', 'X-Signature': 'x' },
      body: '{}',
    });
    expectProblem(hook, 421, '421-001');
    const { response, reached } = await postReachesUpstream(app, {
      Host: `evil.example:${portOf(app)}`,
      Origin: `http://evil.example:${portOf(app)}`,
    });
    expectProblem(response, 421, '421-001');
    expect(reached).toBe(false);
  });

  it('answers its own names on loopback: 127.0.0.1, localhost, *.localhost and [::1]', async () => {
    for (const host of [
      `127.0.0.1:${portOf(app)}`,
      `localhost:${portOf(app)}`,
      `LOCALHOST.:${portOf(app)}`,
      `review.localhost:${portOf(app)}`,
      `[::1]:${portOf(app)}`,
      // A container's port mapping puts its own port in Host: loopback names are never rebinding.
      'localhost:9000',
      '127.0.0.2',
    ]) {
      const page = await send(app, '/', { headers: { Host: host } });
      expect(page.status, host).toBe(200);
      expect(page.body.toString()).toContain('<title>app</title>');
      expect((await send(app, '/api/health', { headers: { Host: host } })).status, host).toBe(200);
    }
  });

  it('refuses names that only look local, and a Host that is not a plain host', async () => {
    for (const host of ['localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.1', 'evil.example:80']) {
      const response = await send(app, '/api/health', { headers: { Host: host } });
      expect(response.status, host).toBe(421);
    }
    // Refused before any route, as a malformed request, with a problem body all the same.
    const smuggled = await send(app, '/api/health', { headers: { Host: 'evil.example@127.0.0.1' } });
    expect(expectProblem(smuggled, 400, '400-001').detail).toContain('invalid host header');
  });

  it('keeps event streams for its own host only', async () => {
    const foreign = await send(app, '/api/events', { headers: { Host: 'evil.example' } });
    expectProblem(foreign, 421, '421-001');
    const controller = new AbortController();
    const own = await fetch(`${app.url}/api/events`, { signal: controller.signal });
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect([...own.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    controller.abort();
  });
});

describe('hosts set by the operator', () => {
  it('answers the hosts of ALLOWED_HOSTS (name, name:port, .domain) and of PUBLIC_URL', async () => {
    const app = await appServer({
      allowedHosts: ['review.internal', 'box.lan:8443', '.corp.example'],
      publicUrl: 'https://review.example.com',
    });
    const allowed = [
      'review.internal',
      'review.internal:8080',
      'box.lan:8443',
      'corp.example',
      'a.b.corp.example:1',
    ];
    for (const host of [...allowed, 'review.example.com', 'review.example.com:443']) {
      expect((await send(app, '/api/health', { headers: { Host: host } })).status, host).toBe(200);
    }
    for (const host of ['box.lan', 'box.lan:8080', 'xcorp.example', 'example.com', 'evil.example']) {
      expect((await send(app, '/api/health', { headers: { Host: host } })).status, host).toBe(421);
    }
  });

  it("takes PUBLIC_URL's origin as the app's own", async () => {
    const app = await appServer({ publicUrl: 'https://review.example.com' });
    const { response, reached } = await postReachesUpstream(app, {
      Host: 'review.example.com',
      Origin: 'https://review.example.com',
    });
    expect(response.status).toBe(202);
    expect(reached).toBe(true);
  });

  it('answers any host with *', async () => {
    const app = await appServer({ allowedHosts: ['*'] });
    expect((await send(app, '/api/health', { headers: { Host: 'anything.example' } })).status).toBe(200);
  });
});

describe('behind a reverse proxy', () => {
  const forwarded = {
    'X-Forwarded-Host': 'review.example.com',
    'X-Forwarded-Proto': 'https',
  };

  it('checks the host a trusted proxy forwards, and takes its protocol for the origin', async () => {
    const app = await appServer({ trustProxy: ['loopback'], allowedHosts: ['review.example.com'] });
    // The proxy reaches the server on loopback; the browser asked for review.example.com over TLS.
    const page = await send(app, '/', { headers: forwarded });
    expect(page.status).toBe(200);
    const { response, reached } = await postReachesUpstream(app, {
      ...forwarded,
      Origin: 'https://review.example.com',
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(response.status).toBe(202);
    expect(reached).toBe(true);
    // The same origin over plain HTTP is another origin.
    const downgraded = await postReachesUpstream(app, { ...forwarded, Origin: 'http://review.example.com' });
    expectProblem(downgraded.response, 403, '403-003');

    // What the browser asked for decides, even when the proxy itself connects with a local Host.
    const rebound = await send(app, '/api/health', {
      headers: { 'X-Forwarded-Host': `evil.example`, 'X-Forwarded-Proto': 'https' },
    });
    const problem = expectProblem(rebound, 421, '421-001');
    expect(problem.detail).toContain('forwarded by a trusted proxy');
    // Forwarded (RFC 7239) is read too.
    const viaForwarded = await send(app, '/api/health', {
      headers: { Forwarded: 'for=192.0.2.1;proto=https;host=review.example.com' },
    });
    expect(viaForwarded.status).toBe(200);
  });

  it('ignores forwarded headers from a peer it does not trust', async () => {
    for (const app of [
      await appServer({ trustProxy: ['10.0.0.0/8'], allowedHosts: ['review.example.com'] }),
      await appServer({ allowedHosts: ['review.example.com'] }),
    ]) {
      // A forwarded name cannot smuggle a foreign Host in...
      const rebound = await send(app, '/api/health', {
        headers: { Host: 'evil.example', 'X-Forwarded-Host': 'review.example.com' },
      });
      expectProblem(rebound, 421, '421-001');
      // ...nor get a local Host refused, nor make another origin the app's own.
      const local = await send(app, '/api/health', { headers: { 'X-Forwarded-Host': 'evil.example' } });
      expect(local.status).toBe(200);
      const { response, reached } = await postReachesUpstream(app, {
        ...forwarded,
        Origin: 'https://review.example.com',
      });
      expectProblem(response, 403, '403-003');
      expect(reached).toBe(false);
    }
  });
});

describe('no cross-origin reads of /api', () => {
  let app: RunningServer;
  beforeAll(async () => {
    app = await appServer();
  });

  it("strips the upstream's Access-Control-* headers from every /api answer", async () => {
    for (const [method, pathname] of [
      ['GET', '/api/v2/jobs/job-1'],
      ['POST', ENQUEUE],
      ['GET', '/api/v1/documents/queue/q'],
    ] as const) {
      const response = await send(app, pathname, { method, headers: { Origin: app.url } });
      expect(response.status).toBeLessThan(300);
      expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('answers a preflight itself, without CORS headers, so the browser refuses the request', async () => {
    const before = upstream.requests.length;
    const response = await send(app, ENQUEUE, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(upstream.requests.length).toBe(before);
  });
});
