/**
 * A PDF page's words from its text layer, as pdf.js gives it in the browser (`getTextContent`): the
 * words and boxes the app server reads from the same page (packages/document-text/src/pdf-text-layer.ts),
 * in the same frame, the page as displayed (`/Rotate` and the CropBox applied through the page's
 * viewport), normalised, origin top-left: a v2 polygon's frame.
 *
 * pdf.js gives text runs ("Invoice number: INV-2024-0042"), each with one advance; a run is split
 * into words at white space, each word getting its share of the advance measured with `charWidth`
 * (the run's font family as the browser draws it) or, without it, by character count. The server
 * measures with the embedded font's own glyph widths: for a run of one word (most values: pdf.js
 * breaks runs at wide gaps) both agree exactly.
 */
import type { TextContent } from 'pdfjs-dist/types/src/display/api';
import { isTextRun, runWords, type ViewportLike } from '@extraction-review/document-text/pdf-text-runs';
import {
  boundingBox,
  boxToPolygon,
  clampBoxToPage,
  fromViewPoint,
  type Point,
} from '@extraction-review/review-domain/viewer/geometry';
import type { WordInput } from './pick-words';

/** The part of pdf.js's `PageViewport` used here (scale 1: PDF points → page pixels, turned). */
export interface PageViewportLike extends ViewportLike {
  width: number;
  height: number;
}

/** A character's advance in a font family, in any unit consistent within a family; undefined if unknown. */
export type CharWidth = (char: string, fontFamily: string) => number | undefined;

/** The page's words in the order pdf.js reads them; none when the page has no text layer (a scan). */
export function pdfTextWords(
  content: Pick<TextContent, 'items' | 'styles'>,
  viewport: PageViewportLike,
  charWidth?: CharWidth,
): WordInput[] {
  const words: WordInput[] = [];
  for (const item of content.items) {
    if (!isTextRun(item)) continue;
    const style = content.styles[item.fontName];
    const family = style?.fontFamily;
    const widthOf = charWidth && family ? (char: string) => charWidth(char, family) : undefined;
    for (const { text, corners } of runWords(item, style, viewport, widthOf)) {
      const normalised = corners.map((point) => fromViewPoint(point, { rotation: 0, size: viewport }));
      const polygon = boxToPolygon(clampBoxToPage(boundingBox(normalised))).map(([x, y]): Point => [
        round(x),
        round(y),
      ]);
      words.push({ text, polygon });
    }
  }
  return words;
}

const round = (n: number): number => Math.round(n * 1e5) / 1e5;
