/** Admins' changes to many documents at once (../bulk.ts; the handler: server/app/review/http/bulk-routes.ts). */
import { BulkRequest, BulkResponse } from '../bulk';
import { declareRoute } from './declare';

export const bulkDocuments = declareRoute({
  operationId: 'bulkDocuments',
  method: 'post',
  path: '/api/review/documents/bulk',
  tag: 'review',
  summary: 'Change many documents at once (admins)',
  description:
    'One action on up to 500 documents, each changed in its own transaction with its history event and its queue event: ' +
    '`assign` assigns each waiting, postponed or held-by-the-operator document to the (active) operator named: it stays theirs (their `takeNext` gives it first, nobody else’s gives it) until it is confirmed, rejected or unassigned; ' +
    '`unassign` gives each assigned document back to the team; ' +
    '`priority` sets how soon each comes up; `reject` rejects each waiting or postponed document with the reason; ' +
    '`delete` removes each document, its history and its kept file (the audit log keeps a `deleted` event naming it). ' +
    'A document another operator is reviewing is never changed: it is skipped (`held`), as is one the action does not apply to (`wrong_state`) or that is not there (`not_found`). ' +
    'The answer lists what changed and what did not, and why.',
  access: 'admin',
  body: BulkRequest,
  responses: { 200: { description: 'What changed and what did not.', schema: BulkResponse } },
  problems: ['404-012', '422-016'],
  notes: {
    '404-012': '`assign` names no operator with this id or name (nothing is changed)',
    '422-016': '`assign` names a deactivated operator (nothing is changed; pointer `#/operator`)',
    '422-008': 'the body does not fit: no document, more than 500, an id named twice, no reason to reject',
  },
});

export const bulkRoutes = [bulkDocuments] as const;
