/**
 * The models' routing and business rules (src/api/review/model-settings.ts): the calls and their
 * React Query options. A v1 product `account/name/vN` travels as one URL-encoded segment.
 */
import { queryOptions } from '@tanstack/react-query';
import { api, segment } from '../http';
import { reviewKeys } from '../keys';
import { csrfHeaders } from './csrf';
import type { CallOptions } from './endpoints';
import { ModelSettings, ModelsResponse, type ModelSettingsRequest } from './model-settings';
import type { ApiVersion } from './schemas';

const settingsPath = (apiVersion: ApiVersion, model: string) =>
  `/review/models/${segment(apiVersion)}/${segment(model)}/settings`;

export function listModels({ signal, client = api }: CallOptions = {}) {
  return client.request({ method: 'GET', path: '/review/models', schema: ModelsResponse, signal });
}

export function getModelSettings(
  apiVersion: ApiVersion,
  model: string,
  { signal, client = api }: CallOptions = {},
) {
  return client.request({
    method: 'GET',
    path: settingsPath(apiVersion, model),
    schema: ModelSettings,
    signal,
  });
}

/** On the version read: 409 `409-001` (with `current`) when another admin saved since. */
export function putModelSettings(
  apiVersion: ApiVersion,
  model: string,
  body: ModelSettingsRequest,
  { signal, client = api }: CallOptions = {},
) {
  return client.request({
    method: 'PUT',
    path: settingsPath(apiVersion, model),
    body: { json: body },
    schema: ModelSettings,
    signal,
    headers: csrfHeaders(),
  });
}

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
