/**
 * The v1 products the service serves: `GET /v1/extensions/products`, an extension of the reference
 * service (the hosted v1 API has no such list, and answers 404). Each with the modes it takes and
 * whether it takes feedback, so the upload form can offer them and warn before a 403.
 */
import { queryOptions } from '@tanstack/react-query';
import { api, type ApiClient } from '../http';
import { v1ProductKeys } from '../keys';
import {
  V1ProductsResponse,
  V1_PRODUCTS_PATH,
  type V1ProductListing,
} from '@extraction-review/contract/v1/products';

export * from '@extraction-review/contract/v1/products';

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
