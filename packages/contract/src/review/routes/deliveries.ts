/**
 * The way back's deliveries (docs/gateway.md, "The way back"; the handlers:
 * server/app/review/http/delivery-routes.ts). Listing, reading and retrying are for admins; a document's
 * deliveries for anyone signed in (its history).
 */
import { z } from 'zod';
import {
  DeliveryDetailResponse,
  DeliveryList,
  DeliveryPage,
  DeliveryQuery,
  DeliveryResponse,
} from '../deliveries';
import { declareRoute } from './declare';
import { DocumentParams } from './queue';

const DeliveryParams = z.object({
  id: z
    .string()
    .regex(/^[0-9]{1,15}$/, { error: 'No such delivery of the way back.' })
    .describe('The delivery’s id (a number).'),
});

export const listDeliveries = declareRoute({
  operationId: 'listDeliveries',
  method: 'get',
  path: '/api/review/deliveries',
  tag: 'review',
  summary: 'The way back’s deliveries (admins)',
  description:
    'Webhooks to integrations, v1 feedback and v2 RAG sent upstream after each confirmation, newest first, with the counts per state.',
  access: 'admin',
  query: DeliveryQuery,
  queryDescriptions: {
    state: 'Only deliveries in this state.',
    kind: 'Only deliveries of this kind.',
    document: 'A document’s id: only its deliveries.',
    integration: 'An integration’s id: only the webhooks to it.',
    cursor: 'The `nextCursor` of the previous page, as it is (422-008 otherwise).',
    limit: 'How many deliveries a page holds.',
  } satisfies Record<keyof z.input<typeof DeliveryQuery>, string>,
  responses: { 200: { description: 'One page of deliveries.', schema: DeliveryPage } },
  notes: { '422-008': 'a query parameter does not fit, or the cursor is not one a page gave' },
});

export const getDelivery = declareRoute({
  operationId: 'getDelivery',
  method: 'get',
  path: '/api/review/deliveries/{id}',
  tag: 'review',
  summary: 'A delivery, its attempts and what it sends (admins)',
  access: 'admin',
  params: DeliveryParams,
  paramsProblem: '404-014',
  responses: { 200: { description: 'The delivery.', schema: DeliveryDetailResponse } },
  notes: { '404-014': 'no delivery with this id' },
});

export const retryDelivery = declareRoute({
  operationId: 'retryDelivery',
  method: 'post',
  path: '/api/review/deliveries/{id}/retry',
  tag: 'review',
  summary: 'Retry a delivery now (admins)',
  description:
    'A failed delivery is pending again with a new round of attempts, due now; a pending one is due now. The webhook’s URL and secret are read again at each attempt.',
  access: 'admin',
  params: DeliveryParams,
  paramsProblem: '404-014',
  responses: { 200: { description: 'The delivery, pending.', schema: DeliveryResponse } },
  problems: ['409-004'],
  notes: { '404-014': 'no delivery with this id', '409-004': 'the delivery was delivered already' },
});

export const getDocumentDeliveries = declareRoute({
  operationId: 'getDocumentDeliveries',
  method: 'get',
  path: '/api/review/documents/{id}/deliveries',
  tag: 'review',
  summary: 'A document’s deliveries',
  description: 'What the document’s confirmations sent (or are sending) on the way back, oldest first.',
  access: 'operator',
  params: DocumentParams,
  paramsProblem: '404-010',
  responses: { 200: { description: 'The deliveries.', schema: DeliveryList } },
});

export const deliveryRoutes = [listDeliveries, getDelivery, retryDelivery, getDocumentDeliveries] as const;
