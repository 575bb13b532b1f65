/**
 * "Where time goes" over HTTP, for admins (docs/review-store.md; shapes in
 * src/api/review/analytics.ts). The route checks the session itself: a `use('*')` here would run for
 * every /api/review route.
 *
 *   GET /api/review/analytics?model&from&to&bucket                  → AnalyticsResponse (JSON)
 *   GET /api/review/analytics?model&from&to&bucket&format=csv&table → one table as CSV (an attachment)
 *
 * A query that does not fit is 422 `422-008`, its `errors[]` pointing at the parameters (`#/from`).
 */
import { Hono } from 'hono';
import { analyticsPeriod, AnalyticsQuery } from '../../../src/api/review/analytics';
import { readQuery } from '../http/read-body';
import type { ReviewContext, ReviewEnv } from '../http/review-context';
import { requireAdmin, requireSession } from '../http/session-auth';
import { analyticsCsv } from './analytics-csv';
import { analyticsFigures } from './figures';

export function analyticsRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  routes.get('/analytics', requireSession(review), requireAdmin(), async (c) => {
    const query = readQuery(c, AnalyticsQuery);
    const now = review.now();
    const figures = await analyticsFigures(
      review.database,
      { model: query.model, ...analyticsPeriod(query, now) },
      now,
    );
    if (query.format === 'csv' && query.table !== undefined) {
      const name = `where-time-goes-${query.table}-${figures.from.slice(0, 10)}-${figures.to.slice(0, 10)}.csv`;
      return c.body(analyticsCsv(figures, query.table), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    }
    return c.json(figures, 200, { 'Cache-Control': 'no-store' });
  });
  return routes;
}
