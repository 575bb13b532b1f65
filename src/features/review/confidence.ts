import type { FieldConfidence } from '@extraction-review/contract/v2/schemas';

/**
 * One palette for the values and the polygons. The service's own order of colours (Certain blue, High
 * green, Medium orange, Low red), taken from the Okabe–Ito palette, which stays distinguishable with
 * the common colour-vision deficiencies (https://jfly.uni-koeln.de/color/). Colour is never the only
 * cue: every level also has its name, a symbol, and polygons a dash pattern (solid for the levels that
 * need no review, dashed for Medium, dotted for Low).
 *
 * `badge` is kept for callers of the first version; text on it is dark on a light tint (WCAG AA).
 */
export interface ConfidenceStyle {
  /** Outline colour of the polygon and of the badge. */
  stroke: string;
  /** SVG `stroke-dasharray` in pixels (with `vector-effect: non-scaling-stroke`), or undefined for solid. */
  dash: string | undefined;
  /** A symbol that tells the levels apart without colour. */
  symbol: string;
  badge: string;
}

export const confidenceStyle: Record<FieldConfidence, ConfidenceStyle> = {
  Certain: { stroke: '#0072B2', dash: undefined, symbol: '●', badge: 'bg-sky-50 text-slate-900' },
  High: { stroke: '#009E73', dash: undefined, symbol: '▲', badge: 'bg-emerald-50 text-slate-900' },
  Medium: { stroke: '#E69F00', dash: '6 3', symbol: '◆', badge: 'bg-amber-50 text-slate-900' },
  Low: { stroke: '#D55E00', dash: '2 2', symbol: '■', badge: 'bg-orange-50 text-slate-900' },
};

/** No confidence reported (the option was off, or the value came from the operator). */
export const unknownConfidenceStroke = '#475569';
export const unknownConfidenceDash = '1 3';

export const CONFIDENCE_LEVELS: readonly FieldConfidence[] = ['Certain', 'High', 'Medium', 'Low'];

/**
 * Medium and below are meant for human review (API-FACTS); so is a value whose confidence is unknown,
 * since nothing vouches for it.
 */
export function needsReview(confidence: FieldConfidence | null): boolean {
  return confidence == null || confidence === 'Medium' || confidence === 'Low';
}
