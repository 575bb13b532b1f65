/**
 * PDF text runs → words, the one way for the reference service (packages/document-text/src/
 * pdf-text-layer.ts, the words it extracts) and the browser (src/features/review/pick/
 * pdf-text-words.ts, the words an operator picks from a PDF's text layer), so that both place a word
 * in the same box.
 *
 * pdf.js gives text *runs* (often a whole line: "Invoice number: INV-2024-0042"), each with one
 * width. The API's polygons are per value, so runs are split into words, and each word gets its share
 * of the run's advance, measured with the font's glyph widths when known (the service: the embedded
 * font's own; the browser: the run's font family as it draws it). A glyph whose width is unknown
 * counts as the mean known width, so with no widths at all this degrades to apportioning by
 * character count.
 */
import type { TextContent, TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api';

/** One word of a run: its text and where it starts and ends, as fractions (0..1) of the run's advance. */
export interface RunWord {
  text: string;
  start: number;
  end: number;
}

/** The advance of one character in any consistent unit, or undefined when unknown. */
export type GlyphWidthOf = (char: string) => number | undefined;

const isSpace = (char: string): boolean => /\s/u.test(char);

export function splitRun(text: string, widthOf: GlyphWidthOf = () => undefined): RunWord[] {
  const chars = Array.from(text);
  const known = chars
    .map(widthOf)
    .filter((w): w is number => w !== undefined && Number.isFinite(w) && w >= 0);
  const fallback = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const widths = chars.map((char) => {
    const width = widthOf(char);
    return width !== undefined && Number.isFinite(width) && width >= 0 ? width : fallback;
  });
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= 0) return [];

  const words: RunWord[] = [];
  let offset = 0;
  let current: { text: string; start: number } | undefined;
  chars.forEach((char, i) => {
    const width = widths[i] ?? 0;
    if (isSpace(char)) {
      if (current) words.push({ text: current.text, start: current.start / total, end: offset / total });
      current = undefined;
    } else if (current) {
      current.text += char;
    } else {
      current = { text: char, start: offset };
    }
    offset += width;
  });
  if (current) words.push({ text: current.text, start: current.start / total, end: 1 });
  return words;
}

/** A point in PDF user space. */
export type Point = readonly [number, number];

/**
 * The corners of a stretch of a text run, in the run's own text space mapped to user space: from
 * `start` to `end` (fractions of the run's advance) along the baseline, from `descent` to `ascent`
 * (fractions of the font size) across it. `transform` is pdf.js's text item transform
 * `[a, b, c, d, e, f]`: (a, b) runs along the baseline, (c, d) points up, (e, f) is the origin.
 */
export function runStretchCorners(
  transform: readonly number[],
  advance: number,
  start: number,
  end: number,
  ascent: number,
  descent: number,
): Point[] {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = transform;
  const along = Math.hypot(a, b) || 1;
  const up = Math.hypot(c, d) || 1;
  const [ux, uy] = [a / along, b / along];
  // (c, d) is the font size in user space times the "up" direction: scale it by ascent/descent.
  const [vx, vy] = [c / up, d / up];
  const at = (t: number, k: number): Point => [
    e + ux * advance * t + vx * up * k,
    f + uy * advance * t + vy * up * k,
  ];
  return [at(start, descent), at(end, descent), at(end, ascent), at(start, ascent)];
}

/** Typical Latin ascent/descent (fractions of the font size) when a font reports none that is sane. */
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

/** A run of pdf.js's text content with something to place: text that is not blank, an advance. */
export function isTextRun(item: TextContent['items'][number]): item is TextItem {
  return 'str' in item && item.str.trim() !== '' && item.width > 0;
}

/** The part of pdf.js's `PageViewport` used here: PDF user space → the page's pixels as displayed. */
export interface ViewportLike {
  convertToViewportPoint(x: number, y: number): number[];
}

/**
 * Each word of a text run with its corners in the viewport's pixels (the page as displayed: `/Rotate`
 * and the CropBox applied, origin top-left), placed by `widthOf` (or character counts).
 */
export function runWords(
  run: TextItem,
  style: TextStyle | undefined,
  viewport: ViewportLike,
  widthOf?: GlyphWidthOf,
): { text: string; corners: Point[] }[] {
  const [ascent, descent] = verticalMetrics(style);
  const transform = run.transform.map(Number);
  return splitRun(run.str, widthOf).map((word) => ({
    text: word.text,
    corners: runStretchCorners(transform, run.width, word.start, word.end, ascent, descent).map(
      ([x, y]): Point => {
        const [vx = 0, vy = 0] = viewport.convertToViewportPoint(x, y).map(Number);
        return [vx, vy];
      },
    ),
  }));
}

function verticalMetrics(style: TextStyle | undefined): [number, number] {
  const ascent = style && style.ascent > 0 && style.ascent <= 1.5 ? style.ascent : DEFAULT_ASCENT;
  const descent = style && style.descent < 0 && style.descent >= -1 ? style.descent : DEFAULT_DESCENT;
  return [ascent, descent];
}
