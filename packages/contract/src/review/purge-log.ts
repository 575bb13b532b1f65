/**
 * The retention purge's log (issue 22): what each purge did, a copy's background sweep or
 * `npm run documents -- purge`, for the admins (the Rules page's Retention section). A purge that
 * found nothing due is kept only as the latest check; the ones that purged something or failed stay.
 * Documents are counted, never named: the tombstones in the audit log say which.
 *
 *   GET /api/review/purge-runs   (admins) → PurgeLogResponse
 */
import { z } from 'zod';
import { ApiVersion } from './schemas';

export const PurgeRunModel = z.object({
  apiVersion: ApiVersion,
  model: z.string(),
  filesRemoved: z.number().int().nonnegative(),
  documentsDeleted: z.number().int().nonnegative(),
});
export type PurgeRunModel = z.infer<typeof PurgeRunModel>;

export const PurgeRun = z.object({
  id: z.string(),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  /** Which app-server copy (host and process), or the command and its host. */
  copy: z.string(),
  /** `sweep`: a copy's background purge; `command`: `npm run documents -- purge`. */
  trigger: z.enum(['sweep', 'command']),
  filesRemoved: z.number().int().nonnegative(),
  documentsDeleted: z.number().int().nonnegative(),
  /** Per model, those it purged something of. */
  models: z.array(PurgeRunModel),
  /** What failed (a file left for the orphan sweep, the store away), without personal data. */
  errors: z.array(z.string()),
});
export type PurgeRun = z.infer<typeof PurgeRun>;

export const PurgeLogResponse = z.object({
  /** Newest first, at most 50. */
  runs: z.array(PurgeRun),
});
export type PurgeLogResponse = z.infer<typeof PurgeLogResponse>;
