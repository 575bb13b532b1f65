/**
 * The models' routing and business rules (packages/contract/src/review/model-settings.ts): the calls and their
 * React Query options. A v1 product `account/name/vN` travels as one URL-encoded segment.
 */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../keys';
import { callRoute, type CallOptions } from './call-route';
import type { ModelSettingsRequest } from '@extraction-review/contract/review/model-settings';
import * as routes from '@extraction-review/contract/review/routes/models';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';

export const listModels = (options: CallOptions = {}) => callRoute(routes.listModels, {}, options);

export const getModelSettings = (apiVersion: ApiVersion, model: string, options: CallOptions = {}) =>
  callRoute(routes.getModelSettings, { params: { apiVersion, model } }, options);

/** On the version read: 409 `409-001` (with `current`) when another admin saved since. */
export const putModelSettings = (
  apiVersion: ApiVersion,
  model: string,
  body: ModelSettingsRequest,
  options: CallOptions = {},
) => callRoute(routes.putModelSettings, { params: { apiVersion, model }, body }, options);

export function modelsQueryOptions() {
  return queryOptions({
    queryKey: reviewKeys.models(),
    queryFn: ({ signal }) => listModels({ signal }),
  });
}

export function modelSettingsQueryOptions(apiVersion: ApiVersion, model: string) {
  return queryOptions({
    queryKey: reviewKeys.modelSettings(apiVersion, model),
    queryFn: ({ signal }) => getModelSettings(apiVersion, model, { signal }),
    // An admin may change them while a review is open: read again now and then.
    staleTime: 30_000,
  });
}
