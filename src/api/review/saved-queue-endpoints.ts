/**
 * Saved queues (packages/contract/src/review/routes/saved-queues.ts): the list with each queue's
 * waiting count, and the admins' writes. Kept under the queue's key, so that the queue's live events
 * (documents taken, decided) refresh the counts with the rest of the queue.
 */
import * as routes from '@extraction-review/contract/review/routes/saved-queues';
import type {
  NewSavedQueueRequest,
  UpdateSavedQueueRequest,
} from '@extraction-review/contract/review/saved-queues';
import { reviewKeys } from '../keys';
import { callRoute, type CallOptions } from './call-route';

export const savedQueuesKey = () => [...reviewKeys.queues(), 'saved'] as const;

export const listSavedQueues = (options: CallOptions = {}) => callRoute(routes.listSavedQueues, {}, options);

export const createSavedQueue = (body: NewSavedQueueRequest, options: CallOptions = {}) =>
  callRoute(routes.createSavedQueue, { body }, options);

export const updateSavedQueue = (id: string, body: UpdateSavedQueueRequest, options: CallOptions = {}) =>
  callRoute(routes.updateSavedQueue, { params: { id }, body }, options);

export const deleteSavedQueue = (id: string, options: CallOptions = {}) =>
  callRoute(routes.deleteSavedQueue, { params: { id } }, options);
