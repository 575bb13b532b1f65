/** React Query options for "Where time goes" (analytics-endpoints.ts), keyed by keys.ts. */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../keys';
import { getAnalytics, type AnalyticsFilter } from './analytics-endpoints';

/** Looked at again every minute while shown: the queue's age moves on its own. */
export function analyticsQueryOptions(filter: AnalyticsFilter) {
  return queryOptions({
    queryKey: reviewKeys.analytics(filter),
    queryFn: ({ signal }) => getAnalytics(filter, { signal }),
    refetchInterval: 60_000,
    placeholderData: (previous) => previous,
  });
}
