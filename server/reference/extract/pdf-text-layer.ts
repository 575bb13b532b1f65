/**
 * Words with positions from one page's text layer, read with pdf.js.
 *
 * Boxes go through the page viewport, so `/Rotate` and the CropBox are honoured and the result is in
 * the frame the API wants (upright page, origin top-left). A page without a text layer comes back with
 * no words: deciding what that means (fail now, OCR later) is the caller's business.
 */
import type { PDFPageProxy, TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api';
import type { PageText, Word } from './extractor';
import { glyphWidthsOf } from './font-glyph-widths';
import { runStretchCorners, splitRun, type GlyphWidthOf } from '../../../src/lib/pdf-text-runs';
import { boxAroundPoints, type Point } from './geometry';

/** Typical Latin ascent/descent (fractions of the font size) when a font reports none that is sane. */
const DEFAULT_ASCENT = 0.8;
const DEFAULT_DESCENT = -0.2;

/** The page's words; none when it has no text layer. The caller cleans the page up. */
export async function readPageText(page: PDFPageProxy): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const base = {
    index: page.pageNumber - 1,
    width: viewport.width,
    height: viewport.height,
    source: 'text-layer' as const,
  };
  const content = await page.getTextContent();
  const runs = content.items.filter(
    (item): item is TextItem => 'str' in item && item.str.trim() !== '' && item.width > 0,
  );
  if (runs.length === 0) return { ...base, words: [] };
  // Loads the page's fonts into commonObjs, where their glyph widths can be read.
  await page.getOperatorList();
  const widthsByFont = new Map<string, GlyphWidthOf | undefined>();
  const widthsOf = (fontName: string): GlyphWidthOf | undefined => {
    if (!widthsByFont.has(fontName)) {
      const font: unknown = page.commonObjs.has(fontName) ? page.commonObjs.get(fontName) : undefined;
      widthsByFont.set(fontName, glyphWidthsOf(font));
    }
    return widthsByFont.get(fontName);
  };

  const words: Word[] = [];
  for (const run of runs) {
    const [ascent, descent] = verticalMetrics(content.styles[run.fontName]);
    const transform = run.transform.map(Number);
    for (const word of splitRun(run.str, widthsOf(run.fontName))) {
      const corners = runStretchCorners(transform, run.width, word.start, word.end, ascent, descent).map(
        ([x, y]): Point => {
          const [vx = 0, vy = 0] = viewport.convertToViewportPoint(x, y).map(Number);
          return [vx, vy];
        },
      );
      // The text layer states its text: nothing is uncertain about reading it.
      words.push({
        text: word.text,
        box: boxAroundPoints(corners, viewport.width, viewport.height),
        confidence: 1,
      });
    }
  }
  return { ...base, words };
}

function verticalMetrics(style: TextStyle | undefined): [number, number] {
  const ascent = style && style.ascent > 0 && style.ascent <= 1.5 ? style.ascent : DEFAULT_ASCENT;
  const descent = style && style.descent < 0 && style.descent >= -1 ? style.descent : DEFAULT_DESCENT;
  return [ascent, descent];
}
