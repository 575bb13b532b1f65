/**
 * The v1 products the service serves: `GET /v1/extensions/products`, an extension of the reference
 * service (the hosted v1 API has no such list, and answers 404). Each with the modes it takes and
 * whether it takes feedback, so the upload form can offer them and warn before a 403.
 */
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type ApiClient } from '../http';
import { v1ProductKeys } from '../keys';
import { ApiRequest } from './schemas';

export const V1ProductListing = z.object({
  account: z.string(),
  name: z.string(),
  /** The major version, without its `v` (`4`). */
  version: z.string(),
  sync: z.boolean(),
  async: z.boolean(),
  feedback: z.boolean(),
});
export type V1ProductListing = z.infer<typeof V1ProductListing>;

export const V1ProductsResponse = z.object({ api_request: ApiRequest, products: z.array(V1ProductListing) });
export type V1ProductsResponse = z.infer<typeof V1ProductsResponse>;

export const V1_PRODUCTS_PATH = '/v1/extensions/products';

export async function listV1Products({
  signal,
  client = api,
}: { signal?: AbortSignal | undefined; client?: ApiClient | undefined } = {}): Promise<V1ProductListing[]> {
  const body = await client.request({
    method: 'GET',
    path: V1_PRODUCTS_PATH,
    schema: V1ProductsResponse,
    signal,
  });
  return body.products;
}

export function v1ProductsQueryOptions() {
  return queryOptions({
    queryKey: v1ProductKeys.all,
    queryFn: ({ signal }) => listV1Products({ signal }),
    // The list changes only when the service restarts with another models file.
    staleTime: 5 * 60_000,
    retry: false,
  });
}
