/** Admins' changes to many documents of the queue at once (packages/contract/src/review/bulk.ts). */
import { callRoute, type CallOptions } from './call-route';
import * as routes from '@extraction-review/contract/review/routes/bulk';
import type { BulkRequest } from '@extraction-review/contract/review/bulk';

export const bulkDocuments = (request: BulkRequest, options: CallOptions = {}) =>
  callRoute(routes.bulkDocuments, { body: request }, options);
