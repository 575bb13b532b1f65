/**
 * Saved queues (../saved-queues.ts; the handlers: server/app/review/http/saved-queue-routes.ts): every
 * operator lists them, admins create, change and delete them.
 */
import { z } from 'zod';
import { UUID_PATTERN } from '../../common-schemas';
import {
  MAX_SAVED_QUEUES,
  NewSavedQueueRequest,
  SavedQueueList,
  SavedQueueResponse,
  UpdateSavedQueueRequest,
} from '../saved-queues';
import { declareRoute } from './declare';

export const SavedQueueParams = z.object({
  id: z
    .string()
    .regex(UUID_PATTERN, { error: 'No such saved queue.' })
    .describe('The saved queue’s id (a UUID: anything else is 404-018).'),
});

export const listSavedQueues = declareRoute({
  operationId: 'listSavedQueues',
  method: 'get',
  path: '/api/review/queues',
  tag: 'review',
  summary: 'List the saved queues',
  description:
    'The team’s saved queues, by name, each with how many of its documents are waiting for the caller (`operator: "me"` is the caller).',
  access: 'operator',
  responses: { 200: { description: 'Every saved queue.', schema: SavedQueueList } },
});

export const createSavedQueue = declareRoute({
  operationId: 'createSavedQueue',
  method: 'post',
  path: '/api/review/queues',
  tag: 'review',
  summary: 'Save a queue (admins)',
  description: `Saves the queue’s filters under a name, for the whole team (at most ${MAX_SAVED_QUEUES} saved queues).`,
  access: 'admin',
  body: NewSavedQueueRequest,
  responses: { 201: { description: 'The saved queue.', schema: SavedQueueResponse } },
  problems: ['409-003', '422-017'],
  notes: {
    '409-003': 'a saved queue with this name (whatever its case) exists (pointer `#/name`)',
    '422-008':
      'the body does not fit: no filter, the highest amount below the lowest… (pointers into the body)',
  },
});

export const updateSavedQueue = declareRoute({
  operationId: 'updateSavedQueue',
  method: 'put',
  path: '/api/review/queues/{id}',
  tag: 'review',
  summary: 'Rename a saved queue or change its filters (admins)',
  access: 'admin',
  params: SavedQueueParams,
  paramsProblem: '404-018',
  body: UpdateSavedQueueRequest,
  responses: { 200: { description: 'The saved queue, changed.', schema: SavedQueueResponse } },
  problems: ['404-018', '409-003', '409-006'],
  notes: {
    '409-003': 'another saved queue has this name (whatever its case) (pointer `#/name`)',
    '409-006': 'the version sent is not the queue’s any more; `current` is the saved queue as it is now',
  },
});

export const deleteSavedQueue = declareRoute({
  operationId: 'deleteSavedQueue',
  method: 'delete',
  path: '/api/review/queues/{id}',
  tag: 'review',
  summary: 'Delete a saved queue (admins)',
  description: 'The documents stay where they are: only the name and its filters go.',
  access: 'admin',
  params: SavedQueueParams,
  paramsProblem: '404-018',
  responses: { 204: { description: 'Deleted.' } },
  problems: ['404-018'],
});

export const savedQueueRoutes = [
  listSavedQueues,
  createSavedQueue,
  updateSavedQueue,
  deleteSavedQueue,
] as const;
