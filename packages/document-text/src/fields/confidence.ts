/**
 * Confidence from evidence. Every reading of a value gets a score in 0..1: the product of factors
 * for each thing that can be wrong with it (the label, where the value sits, how it parsed, how well
 * its words were read, whether the request's text context agrees), then one penalty when another
 * reading nearly as good says something else. The score maps to the API's four levels with the
 * thresholds below (docs/reference-fields.md has the table and the reasons).
 */
import type { FieldConfidence } from '../api-types';
import type { Word } from '../extractor';
import type { LabelStrength } from './label-phrases';

/** Score thresholds of the levels: at least `CERTAIN` is Certain, and so on; below `MEDIUM` is Low. */
export const THRESHOLDS = { CERTAIN: 0.95, HIGH: 0.8, MEDIUM: 0.55 } as const;

/** How much a label of each strength is worth. */
export const LABEL_FACTOR: Record<LabelStrength, number> = { exact: 1, variant: 0.72, fuzzy: 0.62 };

/** Where the value was found, relative to its evidence. */
export const POSITION_FACTOR = {
  /** On the label's line, right of it. */
  right: 1,
  /** Under the label (a header row, a block). */
  below: 0.88,
  /** A table cell under an exact column header. */
  cell: 0.9,
  /** A line of the block a label opens (an address under "Bill to"). */
  block: 0.85,
  /** Part of a block read by its shape (a postal code in an address block). */
  pattern: 0.82,
  /** The first text of the page, as the guidelines said ("at the top of the document"). */
  top: 0.7,
  /** A value of the right type found anywhere, no label (guidelines allow it). */
  scan: 0.66,
} as const;

export type Position = keyof typeof POSITION_FACTOR;

/** An ambiguous parse (`03/04/2025`, `1.234`) is for a person to check: Medium at best. */
export const AMBIGUOUS_PARSE = 0.7;
/** The value does not have the form the guidelines expect (`starts with INV`). */
export const FORMAT_MISMATCH = 0.65;
/** Another reading nearly as good (within this share of the score) gives a different value. */
export const RIVAL_MARGIN = 0.9;
export const RIVAL_PENALTY = 0.85;
/** The text context names this value for the field / names another one. */
export const CONTEXT_AGREES = 1.2;
export const CONTEXT_DISAGREES = 0.8;

export interface Evidence {
  label: number;
  position: number;
  parse: number;
  /** The words' reading confidence: 1 for a PDF text layer, the OCR score otherwise. */
  reading: number;
  /** Text context and guidelines' expected format. */
  hints: number;
}

export const scoreOf = (e: Evidence): number =>
  Math.min(1, e.label * e.position * e.parse * e.reading * e.hints);

/**
 * How well a value's words were read: their confidence, averaged by length, so that a long word read
 * badly weighs more than a lone initial (OCR engines are unsure of one-letter words).
 */
export function readingOf(words: readonly Word[]): number {
  const chars = words.reduce((n, w) => n + Math.max(1, w.text.length), 0);
  if (chars === 0) return 1;
  const sum = words.reduce((n, w) => n + Math.max(1, w.text.length) * w.confidence, 0);
  return Math.max(0, Math.min(1, sum / chars));
}

export function levelOf(score: number): FieldConfidence {
  if (score >= THRESHOLDS.CERTAIN) return 'Certain';
  if (score >= THRESHOLDS.HIGH) return 'High';
  if (score >= THRESHOLDS.MEDIUM) return 'Medium';
  return 'Low';
}

const ORDER: readonly FieldConfidence[] = ['Low', 'Medium', 'High', 'Certain'];

/** The lowest of some levels (an object or list is as sure as its least sure part). */
export function lowestLevel(levels: readonly (FieldConfidence | null)[]): FieldConfidence | undefined {
  const ranks = levels.filter((l): l is FieldConfidence => l !== null).map((l) => ORDER.indexOf(l));
  return ranks.length > 0 ? ORDER[Math.min(...ranks)] : undefined;
}

/**
 * A field with no value: how sure is "it is not there"? Only as sure as the reading of the document:
 * Medium when the page was read well (mean word confidence at least 0.8), Low otherwise, and Low when
 * a label was seen but no value could be read next to it (something is there that we could not read).
 */
export function absenceLevel(documentReading: number, labelSeen: boolean): FieldConfidence {
  return !labelSeen && documentReading >= 0.8 ? 'Medium' : 'Low';
}
