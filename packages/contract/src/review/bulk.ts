/**
 * Admins change many documents of the queue at once (issue 21, "multi-select in the queue"): assign
 * them to an operator or back to the team, set their priority, reject them with one reason, or delete
 * them. One request
 * names up to 500 documents and one action; the server changes each in its own transaction and says,
 * per document, what changed and what did not and why (a document another operator holds is never
 * changed behind their back: it is skipped, and named).
 */
import { z } from 'zod';
import { UUID_PATTERN } from '../common-schemas';

/** How many documents one bulk request may name. */
export const MAX_BULK_DOCUMENTS = 500;

const BulkIds = z
  .array(z.string().regex(UUID_PATTERN, { error: 'A document’s id is a UUID' }), {
    error: 'Name the documents by their ids',
  })
  .min(1, { error: 'Select at least one document' })
  .max(MAX_BULK_DOCUMENTS, { error: `At most ${String(MAX_BULK_DOCUMENTS)} documents at once` })
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
    error: 'Name each document once',
  });

export const BulkRequest = z.discriminatedUnion('action', [
  /** Assigned to this operator (an active one): it stays theirs until decided or unassigned. */
  z.strictObject({
    action: z.literal('assign'),
    ids: BulkIds,
    /** The operator's id or name. */
    operator: z.string().min(1).max(200),
  }),
  /** Back to the team: no longer assigned to anyone. */
  z.strictObject({ action: z.literal('unassign'), ids: BulkIds }),
  z.strictObject({
    action: z.literal('priority'),
    ids: BulkIds,
    priority: z.int({ error: 'A priority is a whole number' }).min(-1000).max(1000),
  }),
  z.strictObject({
    action: z.literal('reject'),
    ids: BulkIds,
    reason: z.string().trim().min(1, { error: 'Say why the documents are rejected' }).max(2000),
  }),
  z.strictObject({ action: z.literal('delete'), ids: BulkIds }),
]);
export type BulkRequest = z.infer<typeof BulkRequest>;
export type BulkAction = BulkRequest['action'];

/**
 * Why a document was left as it was: `held` (another operator is reviewing it), `wrong_state` (the
 * action does not apply to its state: a decided document cannot be assigned or rejected, one assigned
 * to nobody cannot be unassigned), or
 * `not_found` (no such document, deleted meanwhile say).
 */
export const BulkSkipReason = z.enum(['held', 'wrong_state', 'not_found']);
export type BulkSkipReason = z.infer<typeof BulkSkipReason>;

export const BulkResponse = z.object({
  action: z.enum(['assign', 'unassign', 'priority', 'reject', 'delete']),
  /** The ids of the documents changed (deleted), in the order asked. */
  changed: z.array(z.string()),
  /** The documents left as they were, each with why, in the order asked. */
  skipped: z.array(z.object({ id: z.string(), reason: BulkSkipReason, detail: z.string() })),
});
export type BulkResponse = z.infer<typeof BulkResponse>;
