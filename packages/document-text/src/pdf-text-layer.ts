/**
 * Words with positions from one page's text layer, read with pdf.js.
 *
 * Boxes go through the page viewport, so `/Rotate` and the CropBox are honoured and the result is in
 * the frame the API wants (upright page, origin top-left). A page without a text layer comes back with
 * no words: deciding what that means (fail now, OCR later) is the caller's business.
 */
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import type { PageText, Word } from './extractor';
import { glyphWidthsOf } from './font-glyph-widths';
import { isTextRun, runWords, type GlyphWidthOf } from './pdf-text-runs';
import { boxAroundPoints } from './geometry';

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
  const runs = content.items.filter(isTextRun);
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
    for (const { text, corners } of runWords(
      run,
      content.styles[run.fontName],
      viewport,
      widthsOf(run.fontName),
    )) {
      // The text layer states its text: nothing is uncertain about reading it.
      words.push({ text, box: boxAroundPoints(corners, viewport.width, viewport.height), confidence: 1 });
    }
  }
  return { ...base, words };
}
