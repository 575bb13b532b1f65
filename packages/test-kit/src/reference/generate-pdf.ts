/**
 * Test PDFs drawn with pdf-lib, and where each word must land on the page, computed from pdf-lib's own
 * font metrics (not from pdf.js): the expected boxes are independent of the code under test.
 */
import { degrees, PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';

export interface TextLineSpec {
  text: string;
  /** Baseline origin in PDF user space (points, origin bottom-left). */
  x: number;
  y: number;
  size?: number;
  /** Draw the text turned 90° counter-clockwise (for pages shown with /Rotate 90). */
  turned?: boolean;
}

export interface PageSpec {
  width?: number;
  height?: number;
  /** /Rotate of the page. */
  rotate?: 0 | 90;
  /** [x, y, width, height] in user space. */
  cropBox?: [number, number, number, number];
  lines?: TextLineSpec[];
  /** A filled rectangle, so a page without text still draws something. */
  drawBox?: boolean;
}

export interface ExpectedBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface GeneratedPdf {
  bytes: Uint8Array;
  /** The normalised box (0..1, upright page, origin top-left) of `word` within the line `lineText`. */
  boxOf(pageIndex: number, lineText: string, word: string): ExpectedBox;
}

export async function generatePdf(pages: PageSpec[]): Promise<GeneratedPdf> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage([spec.width ?? 612, spec.height ?? 792]);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    if (spec.cropBox) page.setCropBox(...spec.cropBox);
    if (spec.drawBox) page.drawRectangle({ x: 100, y: 100, width: 200, height: 100 });
    for (const line of spec.lines ?? []) {
      page.drawText(line.text, {
        x: line.x,
        y: line.y,
        size: line.size ?? 12,
        font,
        rotate: line.turned ? degrees(90) : undefined,
      });
    }
  }
  const bytes = await doc.save();
  return { bytes, boxOf: (pageIndex, lineText, word) => expectedBox(font, pages, pageIndex, lineText, word) };
}

function expectedBox(
  font: PDFFont,
  pages: PageSpec[],
  pageIndex: number,
  lineText: string,
  word: string,
): ExpectedBox {
  const spec = pages[pageIndex];
  const line = spec?.lines?.find((l) => l.text === lineText);
  const at = line?.text.indexOf(word) ?? -1;
  if (!spec || !line || at < 0) throw new Error(`no "${word}" in "${lineText}" on page ${pageIndex}`);
  const size = line.size ?? 12;
  const start = font.widthOfTextAtSize(line.text.slice(0, at), size);
  const end = start + font.widthOfTextAtSize(word, size);
  const ascent = font.heightAtSize(size, { descender: false });
  const descent = ascent - font.heightAtSize(size, { descender: true }); // negative
  // The word's corners in user space: along the baseline from start to end, across from descent to ascent.
  const corners: [number, number][] = line.turned
    ? [
        [line.x - ascent, line.y + start],
        [line.x - descent, line.y + end],
      ]
    : [
        [line.x + start, line.y + descent],
        [line.x + end, line.y + ascent],
      ];
  const [crop, view] = viewOf(spec);
  const points = corners.map(([x, y]) => view(x - crop[0], y - crop[1]));
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** User space (relative to the crop box) → the upright page, normalised, origin top-left. */
function viewOf(
  spec: PageSpec,
): [[number, number, number, number], (x: number, y: number) => [number, number]] {
  const crop = spec.cropBox ?? [0, 0, spec.width ?? 612, spec.height ?? 792];
  const [, , w, h] = crop;
  // /Rotate 90 turns the page clockwise for display: user (x, y) shows at (y, x) on an h × w page.
  return spec.rotate === 90 ? [crop, (x, y) => [y / h, x / w]] : [crop, (x, y) => [x / w, (h - y) / h]];
}
