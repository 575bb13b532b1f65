/**
 * Saved results the operator opened from files (a document and a result JSON from their own logs),
 * kept in IndexedDB so that the review, and the draft made on it, survive a reload. Nothing here is
 * ever sent anywhere.
 */
import { createStore, del, get, set } from 'idb-keyval';
import { z } from 'zod';

export const SavedResultSchema = z.object({
  /** `v2-<inference id>` or `v1-<document id>`: opening the same result again finds its draft. */
  key: z.string().min(1),
  filename: z.string(),
  mimeType: z.string().nullable(),
  file: z.instanceof(Blob),
  /** The result as read from the file, parsed again when opened (the schemas may have moved on). */
  resultText: z.string(),
  openedAt: z.iso.datetime(),
});
export type SavedResult = z.infer<typeof SavedResultSchema>;

const store = typeof indexedDB === 'undefined' ? null : createStore('extraction-review-saved', 'results');
const memory = new Map<string, unknown>();

export async function saveSavedResult(saved: SavedResult): Promise<void> {
  const checked = SavedResultSchema.parse(saved);
  if (store) await set(checked.key, checked, store);
  else memory.set(checked.key, checked);
}

export async function loadSavedResult(key: string): Promise<SavedResult | null> {
  const parsed = SavedResultSchema.safeParse(store ? await get(key, store) : memory.get(key));
  return parsed.success ? parsed.data : null;
}

export async function removeSavedResult(key: string): Promise<void> {
  if (store) await del(key, store);
  else memory.delete(key);
}

export const savedResultKeys = {
  detail: (key: string) => ['saved-result', key] as const,
};
