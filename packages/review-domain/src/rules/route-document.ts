/**
 * Whether a document sent by an integration goes to an operator or is confirmed on its own, from its
 * model's routing rules and business rules (packages/contract/src/review/model-settings.ts). Pure: the random draw
 * of the sample is the caller's (`random`, in [0, 1)), so tests choose it.
 *
 * The reasons are for the document's timeline: why it was sent to review, or, confirmed on its own,
 * what it passed.
 */
import type { BusinessRule, RoutingRules } from '@extraction-review/contract/review/model-settings';
import type { FieldConfidence } from '@extraction-review/contract/v2/schemas';
import type { ReviewNode } from '../fields/review-tree';
import { evaluateRules, type RuleFailure } from './evaluate-rules';
import { hasValue, resolve, textOf, valuesOf } from './field-values';

export interface RoutingDecision {
  review: boolean;
  reasons: string[];
  /** The business rules that fail (whether or not they send it to review). */
  failures: RuleFailure[];
}

const RANK: Readonly<Record<FieldConfidence, number>> = { Certain: 3, High: 2, Medium: 1, Low: 0 };
const NAMED = 5;

export function routeDocument(
  nodes: readonly ReviewNode[],
  routing: RoutingRules,
  rules: readonly BusinessRule[],
  random: () => number,
): RoutingDecision {
  const failures = evaluateRules(nodes, rules);
  if (!routing.autoConfirm)
    return { review: true, reasons: ['Automatic confirmation is off for this model'], failures };

  const toReview: string[] = [];
  const passed: string[] = [];

  const level = routing.minConfidence;
  if (level !== null) {
    // Values that are there: a missing one is for the required fields to catch.
    const below = valuesOf(nodes).filter(
      (n) =>
        !n.added && textOf(n) !== undefined && (n.confidence === null || RANK[n.confidence] < RANK[level]),
    );
    if (below.length > 0) {
      const named = below.slice(0, NAMED).map((n) => `${n.path} (${n.confidence ?? 'no confidence'})`);
      const more = below.length > NAMED ? `, and ${String(below.length - NAMED)} more` : '';
      toReview.push(
        `${String(below.length)} value${below.length === 1 ? '' : 's'} below ${level} confidence: ${named.join(', ')}${more}`,
      );
    } else passed.push(`Every value at ${level} confidence or above`);
  }

  if (routing.requiredFields.length > 0) {
    const missing = routing.requiredFields.flatMap((field) =>
      resolve(nodes, field).flatMap((m) => (hasValue(m.node) ? [] : [m.path])),
    );
    if (missing.length > 0) toReview.push(`No value for ${missing.join(', ')}`);
    else passed.push(`A value for ${routing.requiredFields.join(', ')}`);
  }

  if (routing.onRuleFailure && rules.length > 0) {
    if (failures.length > 0) toReview.push(...failures.map((f) => `Rule ${f.ruleId} fails: ${f.message}`));
    else
      passed.push(
        `${rules.length === 1 ? 'The business rule passes' : `All ${String(rules.length)} business rules pass`}`,
      );
  }

  if (routing.samplePercent > 0) {
    const percent = `${String(routing.samplePercent)} %`;
    if (random() * 100 < routing.samplePercent) toReview.push(`Drawn for the ${percent} random sample`);
    else passed.push(`Not drawn for the ${percent} random sample`);
  }

  if (toReview.length > 0) return { review: true, reasons: toReview, failures };
  return {
    review: false,
    reasons: passed.length > 0 ? passed : ['No routing rule sends it to review'],
    failures,
  };
}
