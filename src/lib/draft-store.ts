/**
 * Unsent corrections, one draft per job, kept in IndexedDB so that a reload or a crash loses nothing.
 */
import { createStore, del, get, set } from 'idb-keyval';
import { z } from 'zod';

const store = createStore('extraction-review-drafts', 'drafts');

export const CorrectionValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const DraftSchema = z.object({
  /** Corrected values keyed by field path (`total_amount`, `line_items[0].description`). */
  values: z.record(z.string(), CorrectionValueSchema),
  updatedAt: z.iso.datetime(),
});

export type CorrectionValue = z.infer<typeof CorrectionValueSchema>;
export type Draft = z.infer<typeof DraftSchema>;

export const draftStoreKeys = {
  all: ['draft-store'] as const,
  detail: (jobId: string) => [...draftStoreKeys.all, jobId] as const,
};

export async function loadDraft(jobId: string): Promise<Draft | null> {
  const parsed = DraftSchema.safeParse(await get(jobId, store));
  return parsed.success ? parsed.data : null;
}

export async function saveDraft(jobId: string, draft: Draft): Promise<void> {
  if (Object.keys(draft.values).length === 0) await del(jobId, store);
  else await set(jobId, DraftSchema.parse(draft), store);
}
