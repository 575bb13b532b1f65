/**
 * A PDF page's words from its text layer, as pdf.js gives it in the browser (`getTextContent`): the
 * words and boxes the app server reads from the same page (server/reference/extract/pdf-text-layer.ts),
 * in the same frame, the page as displayed (`/Rotate` and the CropBox applied through the page's
 * viewport), normalised, origin top-left: a v2 polygon's frame.
 *
 * pdf.js gives text runs ("Invoice number: INV-2024-0042"), each with one advance; a run is split
 * into words at white space, each word getting its share of the advance measured with `charWidth`
 * (the run's font family as the browser draws it) or, without it, by character count. The server
 * measures with the embedded font's own glyph widths: for a run of one word (most values: pdf.js
 * breaks runs at wide gaps) both agree exactly.
 */
import type { TextContent, TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api';
import { boundingBox, boxToPolygon, clampBoxToPage, type Point } from '../viewer/geometry';
import { runStretchCorners, splitRun } from '../../../lib/pdf-text-runs';
import type { WordInput } from './pick-words';

/** The part of pdf.js's `PageViewport` used here (scale 1: PDF points → page pixels, turned). */
export interface PageViewportLike {
  width: number;
  height: number;
  convertToViewportPoint(x: number, y: number): number[];
}

/** A character's advance in a font family, in any unit consistent within a family; undefined if unknown. */
export type CharWidth = (char: string, fontFamily: string) => number | undefined;

/** Typical Latin ascent/descent (fractions of the font size) when a font reports none that is sane. */
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

/** The page's words in the order pdf.js reads them; none when the page has no text layer (a scan). */
export function pdfTextWords(
  content: Pick<TextContent, 'items' | 'styles'>,
  viewport: PageViewportLike,
  charWidth?: CharWidth,
): WordInput[] {
  const words: WordInput[] = [];
  for (const item of content.items) {
    if (!isRun(item)) continue;
    const style = content.styles[item.fontName];
    const [ascent, descent] = verticalMetrics(style);
    const family = style?.fontFamily;
    const widthOf = charWidth && family ? (char: string) => charWidth(char, family) : undefined;
    const transform = item.transform.map(Number);
    for (const word of splitRun(item.str, widthOf)) {
      const corners = runStretchCorners(transform, item.width, word.start, word.end, ascent, descent).map(
        ([x, y]): Point => {
          const [vx = 0, vy = 0] = viewport.convertToViewportPoint(x, y).map(Number);
          return [vx / viewport.width, vy / viewport.height];
        },
      );
      const polygon = boxToPolygon(clampBoxToPage(boundingBox(corners))).map(([x, y]): Point => [
        round(x),
        round(y),
      ]);
      words.push({ text: word.text, polygon });
    }
  }
  return words;
}

function isRun(item: TextContent['items'][number]): item is TextItem {
  return 'str' in item && item.str.trim() !== '' && item.width > 0;
}

function verticalMetrics(style: TextStyle | undefined): [number, number] {
  const ascent = style && style.ascent > 0 && style.ascent <= 1.5 ? style.ascent : DEFAULT_ASCENT;
  const descent = style && style.descent < 0 && style.descent >= -1 ? style.descent : DEFAULT_DESCENT;
  return [ascent, descent];
}

const round = (n: number): number => Math.round(n * 1e5) / 1e5;
