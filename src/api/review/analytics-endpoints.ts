/**
 * "Where time goes" (`GET /api/review/analytics`, admins; shapes in analytics.ts, the route in
 * routes/analytics.ts): the call (its React Query options: analytics-queries.ts).
 */
import type { AnalyticsQuery } from '@extraction-review/contract/review/analytics';
import { callRoute, type CallOptions } from './call-route';
import * as routes from '@extraction-review/contract/review/routes/analytics';

export type AnalyticsFilter = Pick<AnalyticsQuery, 'model' | 'from' | 'to'>;

export const getAnalytics = (filter: AnalyticsFilter, options: CallOptions = {}) =>
  callRoute(
    routes.getAnalytics,
    { query: { model: filter.model, from: filter.from, to: filter.to } },
    options,
  );
