/**
 * The review API, mounted by the app server under /api (server/app/create-app.ts). Its routes and
 * their contract are listed in each module, and in /api/openapi.json.
 */
import { Hono } from 'hono';
import { analyticsRoutes } from '../analytics/analytics-routes';
import { deliveryRoutes } from './delivery-routes';
import { exportRoutes } from '../exports/export-routes';
import { importRoutes } from './import-routes';
import { modelSettingsRoutes } from './model-settings-routes';
import { reviewOpenApiDocument } from './openapi';
import { operatorRoutes } from './operator-routes';
import type { ReviewContext, ReviewEnv } from './review-context';
import { reviewRoutes } from './review-routes';
import { sessionRoutes } from './session-routes';

export function createReviewApi(review: ReviewContext): Hono<ReviewEnv> {
  const api = new Hono<ReviewEnv>();
  api.route('/', sessionRoutes(review));
  // Before the review routes: the import answers with its own session check (import-routes.ts).
  api.route('/review', importRoutes(review));
  api.route('/review', modelSettingsRoutes(review));
  // Before the review routes too (each route checks the session itself): the way back's deliveries.
  api.route('/review', deliveryRoutes(review));
  api.route('/review', analyticsRoutes(review));
  api.route('/review', reviewRoutes(review));
  api.route('/operators', operatorRoutes(review));
  api.route('/exports', exportRoutes(review));
  api.get('/openapi.json', (c) => c.json(reviewOpenApiDocument(), 200, { 'Cache-Control': 'no-cache' }));
  return api;
}
