/**
 * A document's total amount, kept in `documents.total_amount` (migration 0011-saved-filters) so that the
 * queue filters and saved queues can say "over 10,000" in SQL (queue-store.ts `matching`).
 *
 * The rule (docs/review-store.md, "Amounts"): the result is read as the review reads it (v2 as is, v1
 * through its adapter; review-domain `documentNodes`) with the corrections so far, and the amount is the
 * value of the first top-level field named, in this order, `total_amount`, `total_incl` or `total` that
 * holds a number (a number, or text that is one). No such field, or no number in it: null, and the
 * document matches no amount filter.
 */
import { documentNodes } from '@extraction-review/review-domain/rules/document-nodes';
import { parseNumber } from '@extraction-review/review-domain/fields/review-tree';
import type { ApiVersion } from './review-types';

export const AMOUNT_FIELDS = ['total_amount', 'total_incl', 'total'] as const;

export interface AmountSource {
  apiVersion: ApiVersion;
  model: string;
  upstreamJobId: string | null;
  /** The stored result (JSON text); null while processing. */
  resultJson: string | null;
  /** The latest corrected value per path (parsed), when there are corrections. */
  corrections?: Readonly<Record<string, unknown>> | undefined;
}

export function documentAmount(source: AmountSource): number | null {
  if (source.resultJson === null) return null;
  let result: unknown;
  try {
    result = JSON.parse(source.resultJson) as unknown;
  } catch {
    return null;
  }
  const read = documentNodes({
    apiVersion: source.apiVersion,
    model: source.model,
    upstreamJobId: source.upstreamJobId,
    result,
    corrections: source.corrections ? { ...source.corrections } : undefined,
  });
  if (!read.ok) return null;
  for (const name of AMOUNT_FIELDS) {
    const node = read.nodes.find((n) => n.name === name);
    if (node?.kind !== 'simple') continue;
    const { value } = node;
    const amount =
      typeof value === 'number' ? value : typeof value === 'string' ? parseNumber(value) : undefined;
    if (amount !== undefined && Number.isFinite(amount)) return amount;
  }
  return null;
}

/** Whether a correction's path can change the amount (a top-level amount field, or a revert of one). */
export function touchesAmount(paths: readonly string[]): boolean {
  return paths.some((path) => (AMOUNT_FIELDS as readonly string[]).includes(path));
}
