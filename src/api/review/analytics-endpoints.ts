/**
 * "Where time goes" (`GET /api/review/analytics`, admins; shapes in analytics.ts): the call (its React
 * Query options: analytics-queries.ts).
 */
import { api } from '../http';
import { AnalyticsResponse, type AnalyticsQuery } from './analytics';
import type { CallOptions } from './endpoints';

export type AnalyticsFilter = Pick<AnalyticsQuery, 'model' | 'from' | 'to'>;

export function getAnalytics(filter: AnalyticsFilter, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'GET',
    path: '/review/analytics',
    query: { model: filter.model, from: filter.from, to: filter.to },
    schema: AnalyticsResponse,
    signal,
  });
}
