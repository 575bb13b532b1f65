/**
 * What this browser remembers of the offer to import its kept jobs into the team queue
 * (import-banner.tsx), in localStorage under `extraction-review:import-offered`:
 *
 * - `offeredAt`: when the queue page first looked. Only the jobs kept by then are "from before": a job
 *   uploaded later entered the queue with its upload (server/app/review/intake/), and is never offered.
 * - `dismissed`: "Not now (never ask again)".
 * - `settled`: the jobs dealt with for good (imported, in the queue already, or skipped for a reason
 *   that will not pass). Written job by job, so an import cut short (the tab closed) offers the rest
 *   next time, and the jobs that could not be had for now (service unreachable) are offered again.
 */
import { z } from 'zod';
import type { StoredJob } from '../../lib/document-store';

export const IMPORT_OFFER_KEY = 'extraction-review:import-offered';

const ImportOfferSchema = z.object({
  offeredAt: z.iso.datetime(),
  dismissed: z.boolean().default(false),
  settled: z.array(z.string()).default([]),
});
export type ImportOffer = z.infer<typeof ImportOfferSchema>;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    // Storage blocked (some private modes, site data off).
    return undefined;
  }
}

/**
 * The offer as remembered: null when this browser was never offered; undefined when its storage
 * cannot be used (then nothing can be promised "once", and nothing is offered).
 */
export function readImportOffer(): ImportOffer | null | undefined {
  const store = storage();
  if (store === undefined) return undefined;
  try {
    const raw = store.getItem(IMPORT_OFFER_KEY);
    if (raw === null) return null;
    const parsed = ImportOfferSchema.safeParse(JSON.parse(raw));
    // Unreadable (another version wrote it): the offer was made; do not ask again.
    return parsed.success
      ? parsed.data
      : { offeredAt: new Date(0).toISOString(), dismissed: true, settled: [] };
  } catch {
    return undefined;
  }
}

function write(offer: ImportOffer): ImportOffer {
  try {
    storage()?.setItem(IMPORT_OFFER_KEY, JSON.stringify(offer));
  } catch {
    // Quota or blocked storage: remembered for this page only.
  }
  return offer;
}

/** The offer at the first look: from then on, only the jobs kept until then are offered. */
export function newImportOffer(now = new Date()): ImportOffer {
  return { offeredAt: now.toISOString(), dismissed: false, settled: [] };
}

/** Remembers the first look, unless this browser remembers one already. */
export function rememberFirstLook(offer: ImportOffer): void {
  if (readImportOffer() === null) write(offer);
}

/** "Not now (never ask again)". */
export function dismissImportOffer(offer: ImportOffer): ImportOffer {
  return write({ ...(readImportOffer() ?? offer), dismissed: true });
}

/** Remembers a job as dealt with for good (read again first: the import runs while the page lives). */
export function settleImportedJob(offer: ImportOffer, jobId: string): ImportOffer {
  const current = readImportOffer() ?? offer;
  if (current.settled.includes(jobId)) return current;
  return write({ ...current, settled: [...current.settled, jobId] });
}

/** The kept jobs still to offer: kept before the first look, not dealt with; none once dismissed. */
export function jobsToOffer(jobs: readonly StoredJob[], offer: ImportOffer | null | undefined): StoredJob[] {
  if (offer === undefined || offer === null || offer.dismissed) return [];
  const cutOff = Date.parse(offer.offeredAt);
  const settled = new Set(offer.settled);
  return jobs.filter((job) => Date.parse(job.createdAt) <= cutOff && !settled.has(job.jobId));
}
