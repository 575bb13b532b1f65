/**
 * The unchecked-values gate of a model (v2) or product (v1): confirming a document whose values at
 * Medium, Low or no confidence are still unchecked (neither confirmed nor corrected by the operator,
 * packages/review-domain/src/rules/unchecked-values.ts) asks the operator once ("N values not checked:
 * Review them / Confirm anyway"), and the answer is kept in the document's history (the confirm
 * request's `uncheckedConfirmed`). An admin can make it strict: then no such document is confirmed,
 * the server refuses with `422-014` naming the unchecked values.
 *
 *   GET /api/review/models/{apiVersion}/{model}/unchecked-gate   → UncheckedGate
 *   PUT /api/review/models/{apiVersion}/{model}/unchecked-gate   UncheckedGateRequest (admins) → UncheckedGate
 *
 * Kept apart from the model's settings (model-settings.ts) so that saving one never overwrites the
 * other, each with its own screen.
 */
import { z } from 'zod';
import { ApiVersion } from './schemas';

export const UncheckedGate = z.object({
  apiVersion: ApiVersion,
  model: z.string(),
  /** Strict: no confirmation with unchecked values (422-014); otherwise the operator is asked. */
  strict: z.boolean(),
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z.object({ id: z.string(), name: z.string().nullable() }).nullable(),
});
export type UncheckedGate = z.infer<typeof UncheckedGate>;

export const UncheckedGateRequest = z.strictObject({
  strict: z.boolean({ error: 'Say whether the gate is strict (true or false)' }),
});
export type UncheckedGateRequest = z.infer<typeof UncheckedGateRequest>;
