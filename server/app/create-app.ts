/**
 * The app server: the built browser app, and `/api/*` proxied to the upstream with the API key added.
 * The same factory serves the tests and `server/main.ts`; nothing here listens on a port.
 *
 *   /api/health   liveness, and which upstream each API version goes to (never a key)
 *   /api/v2/*     → <v2 url>/v2/*    Authorization: <key>
 *   /api/v1/*     → <v1 url>/v1/*    Authorization: Token <key>
 *   /api/*        404 problem
 *   anything else  the built app's files, else index.html (client-side routes)
 *
 * docs/app-server.md describes the behaviour for operators.
 */
import path from 'node:path';
import { Hono } from 'hono';
import { notFound, renderError } from '../shared/problem';
import { createProxyHandler, type ApiVersion } from './proxy/create-proxy';
import { createUrlRewriter, type RewriteRule } from './proxy/rewrite-urls';
import { securityHeaders } from './security-headers';
import { serveApp } from './static/serve-app';

export interface UpstreamTarget {
  /** Base URL of the service, without the version segment: `https://api-v2.mindee.net`. */
  url: string;
  apiKey: string;
  /** The embedded reference service (reported as such by /api/health). */
  embedded?: boolean;
  /**
   * Other base URLs under which this upstream writes its own absolute URLs (for example the
   * reference service's REFERENCE_PUBLIC_URL when it differs from the URL we call it at). Rewritten
   * like `url`.
   */
  aliases?: readonly string[];
}

export interface AppOptions {
  upstream: { v2?: UpstreamTarget; v1?: UpstreamTarget };
  /**
   * The built browser app (`vite build` output). Default: `dist/` of the repository; `null` serves
   * only /api (in development Vite serves the app).
   */
  staticDir?: string | null;
  /**
   * How long an upstream may take to send its response headers once the request body has been sent
   * in full, in milliseconds. Default 60 000.
   */
  upstreamTimeoutMs?: number;
  /** How long an upstream may stay silent while sending a response body, in ms. Default 300 000. */
  upstreamIdleTimeoutMs?: number;
  /** JSON answers larger than this are passed on without URL rewriting. Default 16 MiB. */
  maxJsonRewriteBytes?: number;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;
export const DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS = 300_000;
export const DEFAULT_MAX_JSON_REWRITE_BYTES = 16 * 1024 * 1024;
const DEFAULT_STATIC_DIR = path.resolve(import.meta.dirname, '..', '..', 'dist');

export interface HealthBody {
  status: 'ok';
  upstream: Record<ApiVersion, string | null>;
}

/** What /api/health says of an upstream: never its key, nor the path or query of its URL. */
export function describeUpstream(target: UpstreamTarget | undefined): string | null {
  if (target === undefined) return null;
  return target.embedded === true ? 'embedded reference' : new URL(target.url).origin;
}

/** The bases to rewrite into `/api/<version>`: each upstream's URL and aliases, plus `/<version>`. */
export function rewriteRulesFor(upstream: AppOptions['upstream']): RewriteRule[] {
  const rules: RewriteRule[] = [];
  for (const version of ['v2', 'v1'] as const) {
    const target = upstream[version];
    if (target === undefined) continue;
    for (const base of [target.url, ...(target.aliases ?? [])]) {
      rules.push({ from: `${base.replace(/\/+$/, '')}/${version}`, to: `/api/${version}` });
    }
  }
  return rules;
}

export function createApp(options: AppOptions): Hono {
  const { upstream } = options;
  const rewriter = createUrlRewriter(rewriteRulesFor(upstream));
  const proxyOptions = {
    rewriter,
    headersTimeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    idleTimeoutMs: options.upstreamIdleTimeoutMs ?? DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS,
    maxJsonRewriteBytes: options.maxJsonRewriteBytes ?? DEFAULT_MAX_JSON_REWRITE_BYTES,
  };

  const api = new Hono();
  api.get('/health', (c) =>
    c.json(
      {
        status: 'ok',
        upstream: { v2: describeUpstream(upstream.v2), v1: describeUpstream(upstream.v1) },
      } satisfies HealthBody,
      200,
      { 'Cache-Control': 'no-store' },
    ),
  );
  api.all('/v2/*', createProxyHandler({ ...proxyOptions, version: 'v2', upstream: upstream.v2 }));
  api.all('/v1/*', createProxyHandler({ ...proxyOptions, version: 'v1', upstream: upstream.v1 }));
  api.all('*', notFound);

  const app = new Hono();
  app.use('*', securityHeaders());
  app.route('/api', api);
  if (options.staticDir !== null) {
    app.on(['GET', 'HEAD'], '*', serveApp(options.staticDir ?? DEFAULT_STATIC_DIR));
  }
  app.notFound(notFound);
  app.onError(renderError);
  return app;
}
