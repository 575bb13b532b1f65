/**
 * "Where time goes" over HTTP, for admins (docs/review-store.md; shapes in
 * packages/contract/src/review/analytics.ts): the handler of `getAnalytics` (packages/contract/src/review/routes/analytics.ts),
 * JSON, or with `format=csv&table` one table as CSV (an attachment).
 *
 * A query that does not fit is 422 `422-008`, its `errors[]` pointing at the parameters (`#/from`).
 */
import { Hono } from 'hono';
import { analyticsPeriod } from '@extraction-review/contract/review/analytics';
import { getAnalytics } from '@extraction-review/contract/review/routes/analytics';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';
import { analyticsCsv } from '../analytics/analytics-csv';
import { analyticsFigures } from '../analytics/figures';

export function analyticsRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  mountRoute(routes, review, getAnalytics, async (c, { query }) => {
    const now = review.clock.now();
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
