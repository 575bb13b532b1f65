/**
 * Unsent corrections, one draft per job, kept in IndexedDB so that a reload or a crash loses nothing.
 *
 * A draft holds the operator's work, all keyed by field path (`total_amount`, `line_items[0].description`):
 * corrected values, list items removed or added, values the operator confirmed, and a copy of the result
 * they were made on. The copy matters for models that delete a result once it has been fetched: after a
 * reload the service answers 404, and the draft is then the only place the result is left.
 */
import { createStore, del, get, set } from 'idb-keyval';
import { z } from 'zod';
import { FieldLocation } from '../api/v2/schemas';

const store = createStore('extraction-review-drafts', 'drafts');

export const CorrectionValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Drafts written before lists could be edited have `values` and `updatedAt` only: the rest defaults. */
export const DraftSchema = z.object({
  /** Corrected values keyed by field path. */
  values: z.record(z.string(), CorrectionValueSchema),
  /** Paths of list items the operator removed (`line_items[2]`); the item comes back if restored. */
  removed: z.array(z.string()).default([]),
  /** Items the operator appended, per list path (`line_items` → 2); they follow the extracted ones. */
  added: z.record(z.string(), z.int().min(0)).default({}),
  /** Paths of values the operator looked at and confirmed, changed or not. */
  reviewed: z.array(z.string()).default([]),
  /** Regions picked on the page, by path: they replace the value's extracted locations. */
  locations: z.record(z.string(), z.array(FieldLocation)).optional(),
  /** Values confirmed although not found on the page, by path: the value confirmed. */
  notOnPage: z.record(z.string(), CorrectionValueSchema).optional(),
  /** The extraction result the corrections were made on (the ExtractionResponse JSON), when kept. */
  result: z.unknown().optional(),
  updatedAt: z.iso.datetime(),
});

export type CorrectionValue = z.infer<typeof CorrectionValueSchema>;
export type Draft = z.infer<typeof DraftSchema>;
export type DraftInput = z.input<typeof DraftSchema>;

export const draftStoreKeys = {
  all: ['draft-store'] as const,
  detail: (jobId: string) => [...draftStoreKeys.all, jobId] as const,
};

export async function loadDraft(jobId: string): Promise<Draft | null> {
  const parsed = DraftSchema.safeParse(await get(jobId, store));
  return parsed.success ? parsed.data : null;
}

/** True when a draft holds nothing worth keeping. */
export function isEmptyDraft(draft: DraftInput): boolean {
  return (
    Object.keys(draft.values).length === 0 &&
    (draft.removed ?? []).length === 0 &&
    Object.values(draft.added ?? {}).every((n) => n === 0) &&
    (draft.reviewed ?? []).length === 0 &&
    Object.keys(draft.locations ?? {}).length === 0 &&
    Object.keys(draft.notOnPage ?? {}).length === 0
  );
}

export async function saveDraft(jobId: string, draft: DraftInput): Promise<void> {
  if (isEmptyDraft(draft)) await del(jobId, store);
  else await set(jobId, DraftSchema.parse(draft), store);
}

export async function deleteDraft(jobId: string): Promise<void> {
  await del(jobId, store);
}

/**
 * Writes a job's draft as often as asked, one write at a time and always the latest: a write asked
 * for while one is under way replaces any waiting one. So a reload right after a keystroke finds that
 * keystroke stored, and a burst of keystrokes costs one write per IndexedDB round trip.
 */
export function createDraftWriter(jobId: string, onSaved: (error: unknown) => void) {
  let waiting: DraftInput | null = null;
  let busy = false;
  const next = (): void => {
    const draft = waiting;
    if (busy || !draft) return;
    waiting = null;
    busy = true;
    saveDraft(jobId, draft)
      .then(
        () => onSaved(null),
        (error: unknown) => onSaved(error ?? new Error('The draft could not be saved')),
      )
      .finally(() => {
        busy = false;
        next();
      });
  };
  return {
    write(draft: DraftInput): void {
      waiting = draft;
      next();
    },
  };
}
