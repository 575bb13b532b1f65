/**
 * The way back's deliveries (src/api/review/deliveries.ts, docs/gateway.md): one plain async function
 * per call (their React Query options: delivery-queries.ts). Listing, reading and retrying are for
 * admins; a document's deliveries for anyone signed in (its history).
 */
import { api, segment } from '../http';
import { csrfHeaders } from './csrf';
import {
  DeliveryDetailResponse,
  DeliveryList,
  DeliveryPage,
  DeliveryResponse,
  type DeliveryQuery,
} from './deliveries';
import type { CallOptions } from './endpoints';

export function listDeliveries(query: Partial<DeliveryQuery>, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'GET',
    path: '/review/deliveries',
    query: { ...query },
    schema: DeliveryPage,
    signal,
  });
}

export function getDelivery(id: number, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'GET',
    path: `/review/deliveries/${segment(String(id))}`,
    schema: DeliveryDetailResponse,
    signal,
  });
}

/** Due now (a failed one with a new round of attempts); 409 `409-004` once delivered. */
export function retryDelivery(id: number, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'POST',
    path: `/review/deliveries/${segment(String(id))}/retry`,
    schema: DeliveryResponse,
    signal,
    headers: csrfHeaders(),
  });
}

export function getDocumentDeliveries(documentId: string, { signal, client = api }: CallOptions = {}) {
  return client.request({
    method: 'GET',
    path: `/review/documents/${segment(documentId)}/deliveries`,
    schema: DeliveryList,
    signal,
  });
}
