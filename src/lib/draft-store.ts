/**
 * Unsent corrections, one draft per job, kept in IndexedDB so that a reload or a crash loses nothing.
 *
 * A draft holds the operator's work, all keyed by field path (`total_amount`, `line_items[0].description`):
 * corrected values, list items removed or added, values the operator confirmed, and a copy of the result
 * they were made on. The copy matters for models that delete a result once it has been fetched: after a
 * reload the service answers 404, and the draft is then the only place the result is left.
 */
import { createStore, del, get, set } from 'idb-keyval';
import {
  DraftSchema,
  isEmptyDraft,
  type Draft,
  type DraftInput,
} from '@extraction-review/review-domain/fields/draft';

export {
  CorrectionValueSchema,
  DraftSchema,
  isEmptyDraft,
  type CorrectionValue,
  type Draft,
  type DraftInput,
} from '@extraction-review/review-domain/fields/draft';

const store = createStore('extraction-review-drafts', 'drafts');

export const draftStoreKeys = {
  all: ['draft-store'] as const,
  detail: (jobId: string) => [...draftStoreKeys.all, jobId] as const,
};

export async function loadDraft(jobId: string): Promise<Draft | null> {
  const parsed = DraftSchema.safeParse(await get(jobId, store));
  return parsed.success ? parsed.data : null;
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
