/**
 * The v1 products the service serves: `GET /v1/extensions/products`, an extension of the reference
 * service (the hosted v1 API has no such list, and answers 404). Each with the modes it takes and
 * whether it takes feedback, so the upload form can offer them and warn before a 403.
 */
import { z } from 'zod';
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
