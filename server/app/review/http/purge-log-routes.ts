/**
 * The retention purge's log (packages/contract/src/review/purge-log.ts): the handler of the route
 * declared in packages/contract/src/review/routes/retention.ts (admins). The purges themselves are
 * the housekeeping loop's and `npm run documents -- purge`'s (background/retention-purge.ts).
 */
import { Hono } from 'hono';
import type { PurgeLogResponse } from '@extraction-review/contract/review/purge-log';
import * as declared from '@extraction-review/contract/review/routes/retention';
import { PurgeLog } from '../store/purge-log';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';

/** Runs shown: a year of purges that did something is rarely more than this. */
const SHOWN = 50;

export function purgeLogRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();
  const log = new PurgeLog(review.database);
  mountRoute(routes, review, declared.listPurgeRuns, async (c) => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const body: PurgeLogResponse = {
      runs: (await log.list(SHOWN)).map((run) => ({
        ...run,
        startedAt: iso(run.startedAt),
        finishedAt: iso(run.finishedAt),
      })),
    };
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  });
  return routes;
}
