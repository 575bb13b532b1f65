/**
 * The built browser app: files from `staticDir`, `index.html` for the addresses of the app's pages
 * (client-side routes, packages/contract/src/page-routes.ts: the router's own list), and a `404-015` problem for any
 * other path, so that a probe of `/healthz` or `/metrics`, a scanner's `/wp-admin` or a mistyped link
 * gets a 404 it can read instead of the app's page with 200. Files stream from disk
 * (@hono/node-server's serveStatic, which also guards against `..` and answers ranges).
 *
 * Caching: Vite's `assets/` carry a content hash in their names, so they are cached for a year and
 * marked immutable; everything else (index.html, pdf.js's cMaps and fonts, the favicon) is
 * revalidated on each use (`no-cache` with `Last-Modified`, answered 304 when unchanged).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, MiddlewareHandler } from 'hono';
import { pageFor } from '@extraction-review/contract/page-routes';
import { ProblemError } from '@extraction-review/contract/problem';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Hashed build output: a missing file there is a real 404, never the SPA fallback. */
const HASHED_PREFIX = '/assets/';

/** GET and HEAD handler for everything outside `/api`: a file, else a page of the app, else a 404. */
export function serveApp(staticDir: string): MiddlewareHandler {
  const root = path.resolve(staticDir);
  const indexFile = path.join(root, 'index.html');
  // serveStatic logs an error at creation when its root is missing; main.ts reports that better.
  const files = existsSync(root) ? serveStatic({ root }) : undefined;

  return async (c) => {
    const requestPath = c.req.path;
    if (files !== undefined && requestPath !== '/' && requestPath !== '/index.html') {
      let missing = false;
      const found = await files(c, async () => {
        missing = true;
      });
      if (!missing && found instanceof Response) {
        return withCaching(c, found, requestPath.startsWith(HASHED_PREFIX) ? IMMUTABLE : REVALIDATE);
      }
    }
    if (requestPath.startsWith(HASHED_PREFIX)) {
      throw new ProblemError('404-003', `No file at ${requestPath}.`);
    }
    if (!isAppPage(c)) {
      // A person who followed a stale link or mistyped an address gets the app's own "Page not
      // found" (with its navigation), still with 404; probes, scripts and scanners get the problem.
      if (isBrowserNavigation(c)) return spaIndex(c, indexFile, 404);
      throw noSuchPage(c.req.method, requestPath);
    }
    return spaIndex(c, indexFile);
  };
}

/**
 * Whether the request's address is one of the app's pages. Matched on the path as sent (still
 * percent-encoded), as the browser's router sees `location.pathname`: an encoded `/` in a saved
 * result's key stays inside its segment.
 */
function isAppPage(c: Context): boolean {
  const pathname = new URL(c.req.url).pathname;
  return pathname === '/index.html' || pageFor(pathname) !== undefined;
}

/** The answer to a path that is neither a page of the app nor a route of its API. */
export function noSuchPage(method: string, pathname: string): ProblemError {
  return new ProblemError(
    '404-015',
    `Nothing answers ${method} ${pathname.slice(0, 200)}: neither a page of the app nor a route of its ` +
      'API (health checks: /api/health/live and /api/health/ready).',
  );
}

/**
 * A browser opening an address in its window: `Sec-Fetch-Mode: navigate` (every current browser), or
 * an `Accept` that asks for HTML first. Health probes and curl send neither.
 */
function isBrowserNavigation(c: Context): boolean {
  if (c.req.method !== 'GET') return false;
  if (c.req.header('sec-fetch-mode') === 'navigate') return true;
  return /^\s*text\/html/i.test(c.req.header('accept') ?? '');
}

async function spaIndex(c: Context, indexFile: string, status: 200 | 404 = 200): Promise<Response> {
  let html: Buffer;
  try {
    html = await readFile(indexFile);
  } catch {
    throw new ProblemError(
      '404-003',
      'The browser app is not built (no index.html in STATIC_DIR). Run `npm run build`.',
    );
  }
  const headers = {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(html.byteLength),
    'Cache-Control': REVALIDATE,
  };
  return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(html), { status, headers });
}

/** Adds `Cache-Control`, and turns a full answer into 304 when `If-Modified-Since` says so. */
async function withCaching(c: Context, response: Response, cacheControl: string): Promise<Response> {
  response.headers.set('Cache-Control', cacheControl);
  const since = c.req.header('if-modified-since');
  const lastModified = response.headers.get('last-modified');
  if (response.status !== 200 || since === undefined || lastModified === null || c.req.header('range')) {
    return response;
  }
  const sinceMs = Date.parse(since);
  const modifiedMs = Date.parse(lastModified); // second precision, like the header we compare with
  if (Number.isNaN(sinceMs) || Number.isNaN(modifiedMs) || modifiedMs > sinceMs) return response;
  await response.body?.cancel();
  return new Response(null, {
    status: 304,
    headers: { 'Cache-Control': cacheControl, 'Last-Modified': lastModified },
  });
}
