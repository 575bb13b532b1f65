/**
 * The built app over real HTTP: file types, caching, index.html for the app's pages and a 404 problem
 * for every other path, security headers.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../create-app';
import { listen, type RunningServer } from '../listen';
import { json, rawRequest } from '@extraction-review/test-kit/app/http-client';

const INDEX_HTML =
  '<!doctype html><title>extraction-review</title><script type="module" src="/assets/index-a1b2c3.js"></script>';
let dir: string;
let app: RunningServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'app-static-'));
  await mkdir(path.join(dir, 'assets'));
  await mkdir(path.join(dir, 'pdfjs', 'wasm'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(dir, 'assets', 'index-a1b2c3.js'), 'console.log(1);');
  await writeFile(path.join(dir, 'assets', 'pdf.worker.min-d4e5f6.mjs'), 'export {};');
  await writeFile(path.join(dir, 'assets', 'index-a1b2c3.css'), 'body{}');
  await writeFile(
    path.join(dir, 'pdfjs', 'wasm', 'openjpeg.wasm'),
    Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
  );
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  app = await listen(createApp({ upstream: {}, staticDir: dir }), { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('static files', () => {
  it.each([
    ['/assets/index-a1b2c3.js', 'text/javascript; charset=utf-8'],
    ['/assets/pdf.worker.min-d4e5f6.mjs', 'text/javascript; charset=utf-8'],
    ['/assets/index-a1b2c3.css', 'text/css; charset=utf-8'],
    ['/pdfjs/wasm/openjpeg.wasm', 'application/wasm'],
    ['/favicon.svg', 'image/svg+xml; charset=utf-8'],
  ])('serves %s as %s', async (file, type) => {
    const res = await rawRequest(`${app.url}${file}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
  });

  it('caches hashed assets for a year and revalidates everything else', async () => {
    const asset = await rawRequest(`${app.url}/assets/index-a1b2c3.js`);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const wasm = await rawRequest(`${app.url}/pdfjs/wasm/openjpeg.wasm`);
    expect(wasm.headers['cache-control']).toBe('no-cache');
    expect(wasm.headers['last-modified']).toBeDefined();
    const index = await rawRequest(`${app.url}/`);
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('answers 304 to a revalidation of an unchanged file', async () => {
    const first = await rawRequest(`${app.url}/favicon.svg`);
    const again = await rawRequest(`${app.url}/favicon.svg`, {
      headers: { 'If-Modified-Since': String(first.headers['last-modified']) },
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers HEAD without a body', async () => {
    const res = await rawRequest(`${app.url}/assets/index-a1b2c3.js`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });
});

describe("the app's pages, and nothing else", () => {
  it.each([
    '/',
    '/index.html',
    '/jobs',
    '/jobs/',
    '/jobs/12345678-1234-1234-1234-123456789abc?field=total',
    '/jobs/v1/d-1',
    '/review/42',
    '/queue',
    '/open',
    '/saved/invoice%2F2024.json',
    '/sign-in',
    '/setup',
    '/operators',
    '/rules',
    '/rules/v2/m-1',
    '/deliveries',
    '/exports',
    '/analytics',
  ])('serves index.html for %s', async (route) => {
    const res = await rawRequest(`${app.url}${route}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body.toString()).toBe(INDEX_HTML);
  });

  it('answers a 404 problem for a missing hashed asset rather than HTML', async () => {
    const res = await rawRequest(`${app.url}/assets/index-000000.js`);
    expect(res.status).toBe(404);
    expect(json(res)).toMatchObject({ status: 404, code: '404-003' });
  });

  it.each([
    '/healthz',
    '/metrics',
    '/api/nothing',
    '/api/unknown/route',
    '/wp-admin',
    '/wp-admin/setup-config.php',
    '/.env',
    '/jobs/12345678-1234-1234-1234-123456789abc/review',
    '/review',
    '/pdfjs/',
  ])('answers a 404-015 problem, not the app, for %s', async (route) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await rawRequest(`${app.url}${route}`, { method });
      expect(res.status, `${method} ${route}`).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json');
      if (method === 'GET') {
        expect(json(res)).toMatchObject({ status: 404, code: '404-015', title: 'No such page or route' });
      }
    }
  });

  it.each([
    ['Sec-Fetch-Mode: navigate', { 'sec-fetch-mode': 'navigate', accept: '*/*' }],
    ['Accept: text/html first', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' }],
  ])(
    "gives a person's browser the app's own page with 404 for an address that is no page (%s)",
    async (_how, headers) => {
      for (const route of ['/wp-admin', '/jobs/12345678-1234-1234-1234-123456789abc/review']) {
        const res = await rawRequest(`${app.url}${route}`, { headers });
        expect(res.status, route).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body.toString()).toBe(INDEX_HTML);
      }
      // A probe that asks for anything gets the problem.
      const probe = await rawRequest(`${app.url}/healthz`, { headers: { accept: '*/*' } });
      expect([probe.status, (json(probe) as { code: string }).code]).toEqual([404, '404-015']);
    },
  );

  it('answers a 404-015 problem for other methods on a page', async () => {
    const post = await rawRequest(`${app.url}/jobs`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(404);
    expect(json(post)).toMatchObject({ code: '404-015' });
  });

  it('answers the health routes without a session, and /api/health as before', async () => {
    const live = await rawRequest(`${app.url}/api/health/live`);
    expect([live.status, json(live)]).toEqual([200, { status: 'live' }]);
    const ready = await rawRequest(`${app.url}/api/health/ready`);
    expect([ready.status, json(ready)]).toEqual([
      200,
      { status: 'ready', checks: { shutdown: { state: 'ok', required: true } } },
    ]);
  });

  it('never serves a file outside the static directory', async () => {
    // Dot segments are resolved by URL parsing before routing: what is left is no page either.
    for (const route of ['/../../etc/passwd', '/assets/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await rawRequest(`${app.url}${route}`);
      expect(res.status, route).toBe(404);
      expect(json(res), route).toMatchObject({ code: '404-015' });
    }
    // Encoded slashes are refused by the file server, and /assets/ never falls back to HTML.
    const encoded = await rawRequest(`${app.url}/assets/..%2f..%2fetc%2fpasswd`);
    expect(encoded.status).toBe(404);
  });

  it('says to build the app when there is no index.html', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'app-empty-'));
    const bare = await listen(createApp({ upstream: {}, staticDir: empty }), { host: '127.0.0.1', port: 0 });
    try {
      const res = await rawRequest(`${bare.url}/`);
      expect(res.status).toBe(404);
      expect(json<{ detail: string }>(res).detail).toContain('npm run build');
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('security headers', () => {
  it.each(['/', '/assets/pdf.worker.min-d4e5f6.mjs', '/api/health', '/api/nope'])(
    'are set on %s',
    async (route) => {
      const res = await rawRequest(`${app.url}${route}`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).toContain("worker-src 'self' blob:");
      expect(csp).toContain("img-src 'self' blob: data:");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/https?:/); // no third-party origin
      expect(csp).not.toContain("'unsafe-eval'");
    },
  );

  it('reports no upstream in /api/health when none is configured', async () => {
    const res = await rawRequest(`${app.url}/api/health`);
    expect(json(res)).toEqual({ status: 'ok', upstream: { v2: null, v1: null } });
  });
});
