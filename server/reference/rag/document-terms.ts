/**
 * A document's text as RAG compares it: normalised tokens (terms) with their counts, and the page
 * texts kept with a validated document.
 *
 * Terms are what a template shares from one document to the next: labels, the supplier's name and
 * address, bank details, footers. Tokens made only of digits (amounts, dates, quantities, invoice
 * numbers' digits) change with every document and are left out, as are one-character tokens.
 */
import type { DocumentText } from '@extraction-review/document-text/extractor';
import { groupLines, linesToText, type Line } from '@extraction-review/document-text/lines';

export type Terms = Record<string, number>;

/**
 * A page as field finding reads it: its lines of words in reading order. The `PageLayout` that
 * `extractResult` gives (`pages`, and the `postProcess` context) is one.
 */
export interface LaidOutPage {
  /** 0-based, as `FieldLocation.page`. */
  index: number;
  lines: readonly Line[];
}

/** The extractor's words grouped into lines, page by page (what `extractResult` does too). */
export function laidOutPages(document: DocumentText): LaidOutPage[] {
  return document.pages.map((page) => ({ index: page.index, lines: groupLines(page) }));
}

/** Lower case, accents removed, only letters and digits kept: "Zürich," → "zurich", "P-1" → "p1". */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The tokens of a text that count as terms, in order. */
export function tokensOf(text: string): string[] {
  return text
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .map(normalizeText)
    .filter((token) => token.length >= 2 && !/^\p{N}+$/u.test(token));
}

export function termsOf(pages: readonly LaidOutPage[]): Terms {
  const terms: Terms = {};
  for (const page of pages) {
    for (const line of page.lines) {
      for (const word of line.words) {
        for (const token of tokensOf(word.text)) terms[token] = (terms[token] ?? 0) + 1;
      }
    }
  }
  return terms;
}

/** Each page's text as `raw_text` writes it: words joined by spaces, lines by `\n`. */
export function pageTexts(pages: readonly LaidOutPage[]): string[] {
  return pages.map((page) => linesToText(page.lines));
}
