/**
 * pdf.js gives text *runs* (often a whole line: "Invoice number: INV-2024-0042"), each with one
 * width. The API's polygons are per value, so runs are split into words here, and each word gets its
 * share of the run's advance.
 *
 * The share is measured with the font's own glyph widths when pdf.js exposes them (see
 * font-glyph-widths.ts): for a run drawn without extra character or word spacing this places every
 * word exactly. A glyph whose width is unknown counts as the mean known width, so with no widths at
 * all this degrades to apportioning by character count.
 */

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
