/**
 * The app server: the built browser app, and `/api/*` proxied to the upstream with the API key added.
 * The same factory serves the tests and `server/main.ts`; nothing here listens on a port.
 *
 *   /api/health   the process answers, and which upstream each API version goes to (never a key)
 *   /api/health/live, /api/health/ready   for load balancers (health/): the process answers; the
 *                 copy should be sent requests (named checks, each with a time limit; 503 once it drains)
 *   /api/app-config  what the browser needs to know of this server (webhook ids, events on or off)
 *   /api/events   job events for the browsers (Server-Sent Events), fed by /hooks/v2
 *   /api/v2/*     → <v2 url>/v2/*    Authorization: <key>
 *   /api/v1/*     → <v1 url>/v1/*    Authorization: Token <key>
 *   /api/session, /api/setup, /api/review/*, /api/operators, /api/openapi.json   the review API
 *                 (server/app/review/http/), when the app server has a review store
 *   /api/*        404 problem (`404-015`)
 *   /v2/*, /v1/*  the gateway for pipelines, with a review store (docs/gateway.md): an integration
 *                 key in Authorization, then proxied like /api/<version>/* with the upstream's URLs
 *                 written absolute under the host called; the validated results on demand
 *   POST /hooks/v2  the v2 upstream's webhook (signature checked), published on /api/events
 *   GET /metrics  the metrics in Prometheus' text format, with METRICS_TOKEN only (metrics/; bearer
 *                 token, `401-014` without it); else, like any unknown path, `404-015`
 *   anything else  the built app's files, index.html for the app's pages (client-side routes),
 *                 else a `404-015` problem (never the app's page for `/healthz` or `/metrics`)
 *
 * Before any route: the Host check (a 421 problem for a host the server does not answer to: the
 * DNS-rebinding defence). Under /api: state-changing requests from another site's pages refused (403),
 * OPTIONS answered here (never a preflight passed upstream), no `Access-Control-*` header ever sent.
 * With a review store, /api/v2, /api/v1, /api/events and /api/app-config need a signed-in session
 * (and its CSRF token for changes): 401 `401-011` otherwise. The health routes never do.
 *
 * docs/app-server.md describes the behaviour for operators.
 */
import path from 'node:path';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AppConfig, ConfidenceThresholds } from '@extraction-review/contract/app-events';
import { DEFAULT_MAX_BODY_BYTES, limitBodies } from '@extraction-review/server-kit/body-limit';
import { trustedBody } from '@extraction-review/server-kit/connection-limits';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import { notFound, renderError } from '@extraction-review/server-kit/problem-response';
import { AppEventHub } from './events/app-event-hub';
import { eventsHandler } from './events/events-route';
import { healthRoutes } from './health/health-routes';
import { Readiness } from './health/readiness';
import { DEFAULT_MAX_WEBHOOK_BYTES, webhookReceiver } from './hooks/webhook-receiver';
import { createProxyHandler } from './proxy/create-proxy';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import { gatewayRewriter } from './proxy/gateway-urls';
import { createUrlRewriter, type RewriteRule } from './proxy/rewrite-urls';
import { hostGuard } from '@extraction-review/server-kit/host-guard';
import { hostPolicy } from '@extraction-review/server-kit/host-policy';
import { trustedPeers } from '@extraction-review/server-kit/trusted-proxy';
import { rootLogger, type Logger } from '@extraction-review/server-kit/logger';
import { requestLog } from '@extraction-review/server-kit/request-log';
import { integrationOf } from './review/gateway/integration-auth';
import type { AppMetrics } from './metrics/app-metrics';
import { METRICS_PATH, metricsHandler } from './metrics/metrics-route';
import type { ActiveSession } from './review/store/session-store';
import { crossSiteGuard } from './cross-site-guard';
import type { ReviewMount } from './review/http/mount-review';
import { securityHeaders } from '@extraction-review/server-kit/security-headers';
import { noSuchPage, serveApp } from './static/serve-app';
import type { UpstreamTarget } from './upstream/upstream-target';

export type { UpstreamTarget } from './upstream/upstream-target';

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
  /**
   * The upstream's webhook that points at this server's `/hooks/v2`: its signing secret, and its ids
   * (advertised by /api/app-config so that the browser can list them in `webhook_ids`). Without it the
   * receiver refuses every call and /api/events carries no job event.
   */
  webhooks?: {
    v2?: { secret: string; ids: readonly string[] };
    /** Largest webhook body. Default 16 MiB. */
    maxBodyBytes?: number;
  };
  /** The job events' hub; default a new one. Pass one to close it at shutdown (it ends the streams). */
  events?: AppEventHub;
  /** The operator's v1 confidence thresholds (V1_CONFIDENCE_THRESHOLDS), advertised to the review. */
  v1ConfidenceThresholds?: ConfidenceThresholds | null;
  /**
   * Which hosts the server answers to besides its own addresses, and which origin is the app's own
   * (PUBLIC_URL, ALLOWED_HOSTS, TRUST_PROXY; packages/server-kit/src/host-policy.ts). Default: its own addresses
   * only, no proxy trusted.
   */
  hosts?: {
    publicUrl?: string;
    allowedHosts?: readonly string[];
    trustProxy?: readonly string[];
  };
  /**
   * The review store, mounted (server/app/review/http/mount-review.ts): the review API under /api
   * (sessions, the shared queue, operators), the sign-in check in front of the upstream, the job
   * events and the settings, and the recorder of uploads. Without it, only the proxy and events.
   */
  review?: ReviewMount;
  /**
   * What `/api/health/ready` checks (health/readiness.ts), and the switch that turns it `503` when
   * the copy drains. Default: no check but the drain's.
   */
  readiness?: Readiness;
  /**
   * Where the access lines and request errors go (packages/server-kit/src/logger.ts), under
   * `component: http`. Default: the process's root logger.
   */
  logger?: Logger;
  /**
   * The app's metrics (metrics/app-metrics.ts): every answer and upstream call observed, the event
   * streams counted; with `token` (METRICS_TOKEN), also served at `GET /metrics` to that bearer token.
   * Default: none kept.
   */
  metrics?: { metrics: AppMetrics; token?: string | undefined };
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;
export const DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS = 300_000;
export const DEFAULT_MAX_JSON_REWRITE_BYTES = 16 * 1024 * 1024;
/** READY_CHECK_TIMEOUT_MS's default (server/app/settings/config.ts SETTING_DEFAULTS). */
const DEFAULT_READY_CHECK_TIMEOUT_MS = 2_000;
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

/**
 * The bases to rewrite into `<to>/<version>` (`/api/v2` for the browser, the gateway's absolute
 * `https://review.example.com/v2` for pipelines): each upstream's URL and aliases, plus `/<version>`.
 */
export function rewriteRulesFor(upstream: AppOptions['upstream'], to = '/api'): RewriteRule[] {
  const rules: RewriteRule[] = [];
  for (const version of ['v2', 'v1'] as const) {
    const target = upstream[version];
    if (target === undefined) continue;
    for (const base of [target.url, ...(target.aliases ?? [])]) {
      rules.push({ from: `${base.replace(/\/+$/, '')}/${version}`, to: `${to}/${version}` });
    }
  }
  return rules;
}

/**
 * No `/api` answer may let another origin read it: whatever an upstream sends (the hosted service may
 * allow any origin), `Access-Control-*` headers are removed.
 */
const withoutCorsHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  const names = [...c.res.headers.keys()].filter((name) => name.startsWith('access-control-'));
  if (names.length === 0) return;
  try {
    for (const name of names) c.res.headers.delete(name);
  } catch {
    // Immutable headers (a Response straight from fetch): a copy, set after clearing, since Hono's
    // setter would otherwise merge the old headers back in.
    const headers = new Headers(c.res.headers);
    for (const name of names) headers.delete(name);
    const copy = new Response(c.res.body, { status: c.res.status, statusText: c.res.statusText, headers });
    c.res = undefined;
    c.res = copy;
  }
};

/**
 * Each route's body limit (packages/server-kit/src/body-limit.ts): 1 MB of JSON for the review API and anything
 * else; the webhook's own size; none from here where the route counts its body as it streams it: the
 * proxied upstream routes (to the upstream, which has its limit) and the gateway's own routes, and the
 * multipart import (read-import-form.ts).
 */
function bodyLimitFor(maxWebhookBytes: number): (c: Context) => number | undefined {
  return (c) => {
    const path = c.req.path;
    if (/^\/(api\/)?v[12](\/|$)/.test(path) || path === '/api/review/import') return undefined;
    if (path === '/hooks/v2') return maxWebhookBytes;
    return DEFAULT_MAX_BODY_BYTES;
  };
}

export function createApp(options: AppOptions): Hono {
  const { upstream } = options;
  const rewriter = createUrlRewriter(rewriteRulesFor(upstream));
  const proxyOptions = {
    rewriter,
    headersTimeoutMs: options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    idleTimeoutMs: options.upstreamIdleTimeoutMs ?? DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS,
    maxJsonRewriteBytes: options.maxJsonRewriteBytes ?? DEFAULT_MAX_JSON_REWRITE_BYTES,
    onUpstreamAnswer:
      options.metrics && options.metrics.metrics.observeUpstream.bind(options.metrics.metrics),
  };

  const events = options.events ?? new AppEventHub();
  const metrics = options.metrics?.metrics;
  metrics?.watchEventStreams(() => events.subscriberCount);
  const hookV2 = options.webhooks?.v2;

  const policy = hostPolicy({
    publicUrl: options.hosts?.publicUrl,
    allowedHosts: options.hosts?.allowedHosts,
    trustProxy: trustedPeers(options.hosts?.trustProxy ?? []),
  });

  const api = new Hono();
  api.use('*', withoutCorsHeaders);
  api.use('*', crossSiteGuard(policy, options.hosts?.publicUrl));
  // A preflight is answered here, without any Access-Control-* header, so the browser refuses the
  // cross-origin request it asks about; the upstream never sees it.
  api.options('*', (c) => c.body(null, 204, { Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' }));

  // With the review store, the app is a team's: only signed-in operators use the upstream (their
  // changes with the session's CSRF token), read the job events or the app's settings.
  const review = options.review;
  if (review !== undefined) {
    for (const path of ['/app-config', '/events', '/v2/*', '/v1/*']) api.use(path, review.signedIn);
  }
  const recorder = review?.recorder;
  api.get('/app-config', (c) =>
    c.json(
      {
        v2: { webhookIds: [...(hookV2?.ids ?? [])] },
        events: hookV2 !== undefined,
        v1: { confidenceThresholds: options.v1ConfidenceThresholds ?? null },
      } satisfies AppConfig,
      200,
      { 'Cache-Control': 'no-store' },
    ),
  );
  api.get('/events', eventsHandler(events));
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
  // Before the review's routes: no session, and nothing of the store but the checks' own queries.
  api.route(
    '/',
    healthRoutes(options.readiness ?? new Readiness({ timeoutMs: DEFAULT_READY_CHECK_TIMEOUT_MS })),
  );
  if (review !== undefined) api.route('/', review.api);
  api.all('/v2/*', createProxyHandler({ ...proxyOptions, version: 'v2', upstream: upstream.v2, recorder }));
  api.all('/v1/*', createProxyHandler({ ...proxyOptions, version: 'v1', upstream: upstream.v1, recorder }));
  api.all('*', noRoute);

  const app = new Hono();
  // First: the request id and the access line see every answer, refusals of the guards below included.
  app.use(
    '*',
    requestLog({
      logger: (options.logger ?? rootLogger()).child({ component: 'http' }),
      trustProxy: trustedPeers(options.hosts?.trustProxy ?? []),
      actor: whoAsked,
      quiet: routineRequest,
      observe: metrics && ((answer) => metrics.observeRequest(answer)),
    }),
  );
  app.use('*', securityHeaders());
  app.use('*', hostGuard(policy, ''));
  app.use('*', limitBodies(bodyLimitFor(options.webhooks?.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES)));
  app.route('/api', api);
  // The v1 review page lived at /v1/jobs/{id} before the gateway took /v1: old links still work.
  app.get('/v1/jobs/:jobId{[^/]+}', (c) =>
    c.redirect(`/jobs/v1/${encodeURIComponent(c.req.param('jobId'))}`, 308),
  );
  const gateway = review?.gateway;
  const gatewayRewriterFor = gatewayRewriter(
    (base) => rewriteRulesFor(upstream, base),
    policy,
    options.hosts?.publicUrl,
  );
  for (const version of ['v2', 'v1'] as const) {
    if (gateway === undefined) {
      // No review store, no integrations: never the app's index.html for a pipeline's call.
      app.all(`/${version}/*`, notFound);
      continue;
    }
    const routes = new Hono();
    routes.use('*', withoutCorsHeaders);
    routes.use('*', gateway.authenticate(version));
    routes.use('*', trustedBody); // an integration's upload may take longer than 30 s (connection-limits.ts)
    routes.route('/', gateway.routes[version]);
    // Only the gateway's known routes, only the integration's own ids: the upstream sees one key.
    routes.use('*', gateway.isolate(version, upstream[version], proxyOptions.headersTimeoutMs));
    routes.all(
      '*',
      createProxyHandler({
        ...proxyOptions,
        rewriter: gatewayRewriterFor,
        version,
        upstream: upstream[version],
        recorder,
      }),
    );
    if (version === 'v1') routes.onError(gateway.renderV1Error);
    app.route(`/${version}`, routes);
  }
  app.post(
    '/hooks/v2',
    webhookReceiver({
      secret: hookV2?.secret,
      events,
      maxBodyBytes: options.webhooks?.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES,
    }),
  );
  app.all('/hooks/v2', (c) =>
    problemResponse(
      new ProblemError('405-001', `${c.req.method} is not allowed on /hooks/v2: webhooks are POSTed.`, {
        headers: { Allow: 'POST' },
      }),
    ),
  );
  // Never the app's index.html for a mistyped hook URL.
  app.all('/hooks/*', notFound);
  const metricsToken = options.metrics?.token;
  if (metrics !== undefined && metricsToken !== undefined) {
    app.get(METRICS_PATH, metricsHandler(metrics, metricsToken));
  }
  if (options.staticDir !== null) {
    app.on(['GET', 'HEAD'], '*', serveApp(options.staticDir ?? DEFAULT_STATIC_DIR));
  }
  app.notFound(noRoute);
  app.onError(renderError);
  return app;
}

/** Who made a request, for its access line: the signed-in operator, or the gateway's integration. */
function whoAsked(c: Context): Record<string, string> | undefined {
  const session = c.get('session' as never) as ActiveSession | undefined;
  if (session !== undefined) return { operator_id: session.operator.id };
  const integration = integrationOf(c);
  return integration !== undefined ? { integration_id: integration.id } : undefined;
}

/** Health checks and the app's static files served: at `debug`, so that they do not drown the rest. */
function routineRequest(c: Context): boolean {
  const path = c.req.path;
  if (path === '/api/health' || path.startsWith('/api/health/') || path === '/metrics') return true;
  return (
    (c.req.method === 'GET' || c.req.method === 'HEAD') &&
    !/^\/(api|v1|v2|hooks)(\/|$)/.test(path) &&
    c.res.status < 400 // 200, or 304 for a file the browser has; a missing one stays at info
  );
}

/** Neither a page of the app nor a route of its API: `404-015`. */
function noRoute(c: Context): Response {
  return problemResponse(noSuchPage(c.req.method, c.req.path));
}
