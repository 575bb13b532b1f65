/**
 * The way back's deliveries (packages/contract/src/review/deliveries.ts, docs/gateway.md; the routes in
 * routes/deliveries.ts): one plain async function per call (their React Query options:
 * delivery-queries.ts). Listing, reading and retrying are for admins; a document's deliveries for
 * anyone signed in (its history).
 */
import { callRoute, type CallOptions } from './call-route';
import type { DeliveryQuery } from '@extraction-review/contract/review/deliveries';
import * as routes from '@extraction-review/contract/review/routes/deliveries';

export const listDeliveries = (query: Partial<DeliveryQuery>, options: CallOptions = {}) =>
  callRoute(routes.listDeliveries, { query }, options);

export const getDelivery = (id: number, options: CallOptions = {}) =>
  callRoute(routes.getDelivery, { params: { id: String(id) } }, options);

/** Due now (a failed one with a new round of attempts); 409 `409-004` once delivered. */
export const retryDelivery = (id: number, options: CallOptions = {}) =>
  callRoute(routes.retryDelivery, { params: { id: String(id) } }, options);

export const getDocumentDeliveries = (documentId: string, options: CallOptions = {}) =>
  callRoute(routes.getDocumentDeliveries, { params: { id: documentId } }, options);
