/**
 * `GET /metrics`: the app's metrics in Prometheus' text format. On the app's own port only with
 * METRICS_TOKEN, asked as `Authorization: Bearer <token>` (compared in constant time: digests of
 * equal length, so neither the token's content nor its length leaks through timing); without it or
 * with another, `401-014`. On the separate listener (METRICS_PORT, metricsOnlyApp) no token: that
 * port is for the network the scraper is on.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type Handler } from 'hono';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import { notFound, renderError } from '@extraction-review/server-kit/problem-response';
import type { AppMetrics } from './app-metrics';

export const METRICS_PATH = '/metrics';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const given = match?.[1] ?? '';
  // Always compared, an absent token too, so that a missing and a wrong one take the same time.
  return timingSafeEqual(digest(given), digest(token)) && match !== null;
}

/** The scrape's answer; `token` undefined: none asked (the separate listener). */
export function metricsHandler(metrics: AppMetrics, token: string | undefined): Handler {
  return async (c: Context) => {
    if (token !== undefined && !bearerMatches(c.req.header('authorization'), token)) {
      return problemResponse(
        new ProblemError(
          '401-014',
          c.req.header('authorization') === undefined
            ? 'The metrics need Authorization: Bearer <METRICS_TOKEN>.'
            : 'The metrics token is not the one this server was given (METRICS_TOKEN).',
          { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } },
        ),
      );
    }
    const { body, contentType } = await metrics.scrape();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  };
}

/** The separate listener's app (METRICS_PORT): `/metrics` and nothing else. */
export function metricsOnlyApp(metrics: AppMetrics): Hono {
  const app = new Hono();
  app.get(METRICS_PATH, metricsHandler(metrics, undefined));
  app.notFound(notFound);
  app.onError(renderError);
  return app;
}
