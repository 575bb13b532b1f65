/**
 * Beside each team-queue draft (lib/draft-store.ts, key `review:<document id>`), the server's
 * corrections it was last known to match: its base. On load, the base tells the operator's unsent
 * changes (draft ≠ base) from corrections made on the server since (server ≠ base), so a draft left
 * over from before a take-over neither hides them nor reverts them (corrections-sync.ts `mergeEdits`).
 */
import { createStore, del, get, set } from 'idb-keyval';
import { z } from 'zod';
import { FieldLocation } from '@extraction-review/contract/v2/schemas';
import { CorrectionValueSchema } from '@extraction-review/review-domain/fields/draft';
import type { Edits } from '@extraction-review/review-domain/fields/review-tree';

const store = createStore('extraction-review-queue', 'draft-bases');

const BaseSchema = z.object({
  values: z.record(z.string(), CorrectionValueSchema),
  removed: z.array(z.string()),
  added: z.record(z.string(), z.int().min(0)),
  reviewed: z.array(z.string()),
  locations: z.record(z.string(), z.array(FieldLocation)).optional(),
  notOnPage: z.record(z.string(), CorrectionValueSchema).optional(),
});

/** Null when none is kept (or it cannot be read). */
export async function loadDraftBase(key: string): Promise<Edits | null> {
  return BaseSchema.safeParse(await get(key, store)).data ?? null;
}

/** Writes are queued in the order they are asked for (one IndexedDB transaction each, in order). */
export function saveDraftBase(key: string, base: Edits): Promise<void> {
  return set(key, BaseSchema.parse(base), store);
}

export function deleteDraftBase(key: string): Promise<void> {
  return del(key, store);
}
