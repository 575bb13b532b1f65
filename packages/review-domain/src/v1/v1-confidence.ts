/**
 * v1 gives a field's confidence as a number in 0..1; the review speaks v2's four levels (Certain, High,
 * Medium, Low; Medium and below are meant for human review, API-FACTS). Neither the spec, API-FACTS nor the
 * official clients map one onto the other: `mindee-api-nodejs` keeps v1 confidence a plain number and v2's
 * a bare enum (`src/parsing/v2/field/fieldConfidence.ts`). So the thresholds are ours, and configurable.
 *
 * Defaults (lower bounds): Certain ≥ 0.95, High ≥ 0.80, Medium ≥ 0.55, else Low. Why these:
 * - They are the project's one score → level table: the reference service grades its own scores with them
 *   (`packages/document-text/src/fields/confidence.ts` THRESHOLDS, docs/reference-fields.md), and its v1
 *   writer restates each level as a number inside that band (`server/reference/v1/v1-prediction.ts`
 *   LEVEL_SCORE 0.99 / 0.9 / 0.7 / 0.4). A document read by the reference service therefore shows the same
 *   level whether it is reviewed through v1 or v2.
 * - They suit the hosted service's scores in the recorded corpus (every numeric `confidence` under `v1/`,
 *   document and page predictions, 793, two decimals): of the 520 above 0, 336 are 0.99 or 1.0 and 54 are
 *   0.95–0.98, the service's usual marks for a sure reading (Certain); about 51 are 0.80–0.94 (High), 36
 *   are 0.55–0.79 (Medium) and 43 lower (Low). A field not found comes with 0 (expense_receipts/
 *   response_v5/complete.json `tip`): Low, for a reviewer to check, as the reference service marks absent
 *   values too.
 * The bound that matters most is High's: Medium and below are what the review asks a person to check
 * (confidence.ts `needsReview`). A team that wants more checked raises it.
 */
import { ConfidenceThresholds } from '@extraction-review/contract/app-events';
import type { FieldConfidence } from '@extraction-review/contract/v2/schemas';

// The schema lives with the app server's configuration, which can set the thresholds (app-events.ts).
export { ConfidenceThresholds };

export const DEFAULT_CONFIDENCE_THRESHOLDS: Readonly<ConfidenceThresholds> = Object.freeze({
  certain: 0.95,
  high: 0.8,
  medium: 0.55,
});

/**
 * The level of a v1 score. Null when there is none (the field carries no `confidence`, or not a number):
 * the review treats unknown confidence as "to review" itself, so nothing is invented here.
 */
export function v1ConfidenceLevel(
  score: number | null | undefined,
  thresholds: Readonly<ConfidenceThresholds> = DEFAULT_CONFIDENCE_THRESHOLDS,
): FieldConfidence | null {
  if (score == null || !Number.isFinite(score)) return null;
  if (score >= thresholds.certain) return 'Certain';
  if (score >= thresholds.high) return 'High';
  if (score >= thresholds.medium) return 'Medium';
  return 'Low';
}
