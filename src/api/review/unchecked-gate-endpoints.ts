/**
 * A model's unchecked-values gate (packages/contract/src/review/unchecked-gate.ts): the calls and their
 * React Query options. A v1 product `account/name/vN` travels as one URL-encoded segment.
 */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../keys';
import { callRoute, type CallOptions } from './call-route';
import * as routes from '@extraction-review/contract/review/routes/checks';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';

export const getUncheckedGate = (apiVersion: ApiVersion, model: string, options: CallOptions = {}) =>
  callRoute(routes.getUncheckedGate, { params: { apiVersion, model } }, options);

/** Admins: strict or not (last write wins). */
export const putUncheckedGate = (
  apiVersion: ApiVersion,
  model: string,
  strict: boolean,
  options: CallOptions = {},
) => callRoute(routes.putUncheckedGate, { params: { apiVersion, model }, body: { strict } }, options);

export function uncheckedGateQueryOptions(apiVersion: ApiVersion, model: string) {
  return queryOptions({
    queryKey: [...reviewKeys.modelSettings(apiVersion, model), 'unchecked-gate'] as const,
    queryFn: ({ signal }) => getUncheckedGate(apiVersion, model, { signal }),
    // An admin may change it while a review is open: read again now and then.
    staleTime: 30_000,
  });
}
