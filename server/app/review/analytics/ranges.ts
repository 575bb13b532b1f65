/**
 * Distributions without engine-specific SQL: percentiles by nearest rank (the value at rank
 * ⌈p·n⌉ of the n values sorted ascending, so always one of the values, and the lower middle one of an
 * even count for the median), and counts per range of durations.
 */
import type { RangeCount } from '@extraction-review/contract/review/analytics';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface Range {
  label: string;
  fromMs: number;
  /** Excluded; null: no end. */
  toMs: number | null;
}

/** Time spent on one document. */
export const WORK_RANGES: readonly Range[] = [
  { label: 'under 1 min', fromMs: 0, toMs: MINUTE },
  { label: '1–2 min', fromMs: MINUTE, toMs: 2 * MINUTE },
  { label: '2–5 min', fromMs: 2 * MINUTE, toMs: 5 * MINUTE },
  { label: '5–10 min', fromMs: 5 * MINUTE, toMs: 10 * MINUTE },
  { label: '10–30 min', fromMs: 10 * MINUTE, toMs: 30 * MINUTE },
  { label: '30 min or more', fromMs: 30 * MINUTE, toMs: null },
];

/** How long a document has waited for a decision. */
export const AGE_RANGES: readonly Range[] = [
  { label: 'under 1 hour', fromMs: 0, toMs: HOUR },
  { label: '1–4 hours', fromMs: HOUR, toMs: 4 * HOUR },
  { label: '4–24 hours', fromMs: 4 * HOUR, toMs: DAY },
  { label: '1–3 days', fromMs: DAY, toMs: 3 * DAY },
  { label: '3–7 days', fromMs: 3 * DAY, toMs: 7 * DAY },
  { label: '7 days or more', fromMs: 7 * DAY, toMs: null },
];

/** The rank (1-based) of the p-th percentile among n values; 0 when there are none. */
export function percentileRank(p: number, n: number): number {
  return n === 0 ? 0 : Math.min(n, Math.max(1, Math.ceil(p * n)));
}

/** The p-th percentile (0 < p ≤ 1) of values sorted ascending; null when there are none. */
export function percentile(sorted: readonly number[], p: number): number | null {
  const rank = percentileRank(p, sorted.length);
  return rank === 0 ? null : (sorted[rank - 1] ?? null);
}

export function countInRanges(values: readonly number[], ranges: readonly Range[]): RangeCount[] {
  return ranges.map((range) => ({
    ...range,
    count: values.filter((v) => v >= range.fromMs && (range.toMs === null || v < range.toMs)).length,
  }));
}
