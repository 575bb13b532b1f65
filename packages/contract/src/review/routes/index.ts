/**
 * Every route of the review API, declared once (declare.ts): the server mounts them, the browser calls
 * them, and /api/openapi.json lists them in this order.
 */
import { analyticsRoutes } from './analytics';
import { bulkRoutes } from './bulk';
import { checkRoutes } from './checks';
import { declareRoute } from './declare';
import { deliveryRoutes } from './deliveries';
import { exportRoutes } from './exports';
import { modelRoutes } from './models';
import { operatorRoutes } from './operators';
import { queueRoutes } from './queue';
import { retentionRoutes } from './retention';
import { savedQueueRoutes } from './saved-queues';
import { sessionRoutes } from './session';

export const getOpenApi = declareRoute({
  operationId: 'getOpenApi',
  method: 'get',
  path: '/api/openapi.json',
  tag: 'meta',
  summary: 'This OpenAPI document',
  access: 'public',
  responses: {
    200: {
      description: 'The OpenAPI 3.1 document of the review API.',
      content: { 'application/json': { schema: { type: 'object' } } },
    },
  },
});

export const reviewApiRoutes = [
  ...sessionRoutes,
  ...queueRoutes,
  ...bulkRoutes,
  ...savedQueueRoutes,
  ...modelRoutes,
  ...checkRoutes,
  ...retentionRoutes,
  ...exportRoutes,
  ...operatorRoutes,
  getOpenApi,
  ...deliveryRoutes,
  ...analyticsRoutes,
] as const;
