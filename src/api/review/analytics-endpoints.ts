/**
 * "Where time goes" (`GET /api/review/analytics`, admins; shapes in analytics.ts): the call and its
 * React Query options, keyed by keys.ts.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from '../http';
import { reviewKeys } from '../keys';
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

/** Looked at again every minute while shown: the queue's age moves on its own. */
export function analyticsQueryOptions(filter: AnalyticsFilter) {
  return queryOptions({
    queryKey: reviewKeys.analytics(filter),
    queryFn: ({ signal }) => getAnalytics(filter, { signal }),
    refetchInterval: 60_000,
    placeholderData: (previous) => previous,
  });
}
