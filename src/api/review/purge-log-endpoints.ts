/**
 * The retention purge's log (packages/contract/src/review/purge-log.ts), admins only: the call and
 * its React Query options.
 */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../keys';
import { callRoute, type CallOptions } from './call-route';
import * as routes from '@extraction-review/contract/review/routes/retention';

export const listPurgeRuns = (options: CallOptions = {}) => callRoute(routes.listPurgeRuns, {}, options);

export function purgeRunsQueryOptions() {
  return queryOptions({
    queryKey: reviewKeys.purgeRuns(),
    queryFn: ({ signal }) => listPurgeRuns({ signal }),
    // Purges run hourly by default: a page left open reads it again now and then.
    staleTime: 60_000,
  });
}
