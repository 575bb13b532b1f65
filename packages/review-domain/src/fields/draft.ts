/**
 * A draft: the operator's unsent corrections to one job, keyed by field path (`total_amount`,
 * `line_items[0].description`). Pure data shared by the browser (which keeps drafts in IndexedDB,
 * src/lib/draft-store.ts) and the review backend (which syncs them as queue corrections).
 */
import { z } from 'zod';
import { FieldLocation } from '@extraction-review/contract/v2/schemas';

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
