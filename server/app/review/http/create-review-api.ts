/**
 * The review API, mounted by the app server under /api (server/app/create-app.ts). Each route is
 * declared once in packages/contract/src/review/routes/ and mounted by its module here (mount-route.ts); the
 * OpenAPI document at /api/openapi.json is generated from the same declarations (openapi.ts).
 */
import { Hono } from 'hono';
import { getOpenApi } from '@extraction-review/contract/review/routes/index';
import { analyticsRoutes } from './analytics-routes';
import { bulkRoutes } from './bulk-routes';
import { deliveryRoutes } from './delivery-routes';
import { exportRoutes } from './export-routes';
import { importRoutes } from './import-routes';
import { modelSettingsRoutes } from './model-settings-routes';
import { uncheckedGateRoutes } from './unchecked-gate-routes';
import { purgeLogRoutes } from './purge-log-routes';
import { reviewOpenApiDocument } from './openapi';
import { mountRoute } from './mount-route';
import { operatorRoutes } from './operator-routes';
import type { ReviewContext, ReviewEnv } from '../review-context';
import { reviewRoutes } from './review-routes';
import { savedQueueRoutes } from './saved-queue-routes';
import { requireSession } from './session-auth';
import { sessionRoutes } from './session-routes';

export function createReviewApi(review: ReviewContext): Hono<ReviewEnv> {
  const api = new Hono<ReviewEnv>();
  // Each module's routes carry their whole path (under /api) and their own access checks.
  for (const routes of [
    sessionRoutes(review),
    importRoutes(review),
    modelSettingsRoutes(review),
    uncheckedGateRoutes(review),
    purgeLogRoutes(review),
    deliveryRoutes(review),
    analyticsRoutes(review),
    bulkRoutes(review),
    reviewRoutes(review),
    savedQueueRoutes(review),
    operatorRoutes(review),
    exportRoutes(review),
  ])
    api.route('/', routes);
  mountRoute(api, review, getOpenApi, (c) =>
    c.json(reviewOpenApiDocument(), 200, { 'Cache-Control': 'no-cache' }),
  );
  // Last, for what no route answers: a request under these prefixes meets the session check first
  // (401-011 without one), as their catch-all checks always made it, before "no such route".
  for (const prefix of ['/review/*', '/operators/*', '/exports/*']) api.all(prefix, requireSession(review));
  return api;
}
