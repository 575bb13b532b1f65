/**
 * Saved queues (issue 21, "a saved filter is a queue"): the team's named sets of the queue's filters
 * ("Receipts", "Invoices over 10,000"). Admins create, rename, change and delete them; every operator
 * sees them on the queue page with how many documents each has waiting, and choosing one puts its
 * filters in the queue's URL, so "Start reviewing" and "Confirm and next" take from it. There are no
 * personal saved queues: an operator's own view is the queue's URL (a link or a bookmark keeps it).
 *
 * A queue keeps the filters that name a kind of work (state, model, operator, search, amount,
 * assignment); the
 * received-between dates are a moment's view and are not saved.
 */
import { z } from 'zod';
import { DocumentState } from './schemas';

/** The most saved queues the team keeps (a list on the queue page, not a catalogue). */
export const MAX_SAVED_QUEUES = 50;

const Amount = z
  .number({ error: 'An amount, as a number' })
  .min(-1e15, { error: 'An amount between -10^15 and 10^15' })
  .max(1e15, { error: 'An amount between -10^15 and 10^15' });

const Text = (max: number) => z.string().trim().min(1, { error: 'Leave it out rather than empty' }).max(max);

export const SavedQueueFilters = z
  .strictObject({
    state: DocumentState.optional(),
    /** v2: the model id; v1: `account/name/vN`. */
    model: Text(300).optional(),
    /** `me` (whoever uses the queue), or an operator's id. */
    operator: Text(100).optional(),
    /** Searched in file names and aliases. */
    q: Text(500).optional(),
    /** The document's total amount at least / at most this. */
    minAmount: Amount.optional(),
    maxAmount: Amount.optional(),
    /** Whose assignment: `me` (whoever uses the queue), `anyone`, `nobody`, or an operator's id. */
    assigned: Text(100).optional(),
  })
  .superRefine((filters, context) => {
    if (Object.values(filters).every((value) => value === undefined))
      context.addIssue({
        code: 'custom',
        path: [],
        message: 'Choose at least one filter to save as a queue',
      });
    if (
      filters.minAmount !== undefined &&
      filters.maxAmount !== undefined &&
      filters.minAmount > filters.maxAmount
    )
      context.addIssue({
        code: 'custom',
        path: ['maxAmount'],
        message: 'The highest amount is below the lowest',
      });
  });
export type SavedQueueFilters = z.infer<typeof SavedQueueFilters>;

const Name = z
  .string({ error: 'Give the queue a name' })
  .trim()
  .min(1, { error: 'Give the queue a name' })
  .max(80, { error: 'A name has at most 80 characters' });

export const NewSavedQueueRequest = z.strictObject({ name: Name, filters: SavedQueueFilters });
export type NewSavedQueueRequest = z.infer<typeof NewSavedQueueRequest>;

/** A rename, new filters, or both, on the version read (409-006 otherwise). */
export const UpdateSavedQueueRequest = z.strictObject({
  version: z.int({ error: 'Send the version you read' }).positive(),
  name: Name.optional(),
  filters: SavedQueueFilters.optional(),
});
export type UpdateSavedQueueRequest = z.infer<typeof UpdateSavedQueueRequest>;

export const SavedQueue = z.object({
  id: z.string(),
  name: z.string(),
  filters: SavedQueueFilters,
  version: z.int().positive(),
  /** How many documents of this queue are waiting (what "Start reviewing" would take from), for the caller. */
  waiting: z.int().nonnegative(),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type SavedQueue = z.infer<typeof SavedQueue>;

export const SavedQueueList = z.object({ queues: z.array(SavedQueue) });
export type SavedQueueList = z.infer<typeof SavedQueueList>;

export const SavedQueueResponse = z.object({ queue: SavedQueue });
export type SavedQueueResponse = z.infer<typeof SavedQueueResponse>;
