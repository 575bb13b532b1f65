/**
 * Where a PDF page paints pictures (a logo, a stamp, a scanned page under an OCR text layer): the
 * boxes of its image operators, from pdf.js's operator list with the current transformation matrix
 * followed through `save`/`restore`/`transform` and form XObjects. Normalised to the page as
 * displayed (`/Rotate` and CropBox applied, origin top-left): the frame of the text layer's words.
 *
 * The review's page words OCR these regions of a page that has a text layer (read-page.ts): a name
 * printed only inside a logo is then among the page's words.
 */
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import type { Box } from './geometry';
import { loadPdfJs } from './pdfjs';

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `m` then `n` (PDF's row-vector convention: a point is mapped by `m` first). */
function multiply(n: Matrix, m: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

function isMatrix(value: unknown): value is Matrix {
  return Array.isArray(value) || ArrayBuffer.isView(value)
    ? (value as ArrayLike<unknown>).length === 6 &&
        Array.from(value as ArrayLike<unknown>).every((n) => typeof n === 'number' && Number.isFinite(n))
    : false;
}

/**
 * The boxes of the pictures page `page` paints, clipped to the page and normalised; pictures under
 * `minArea` of the page (a rule, a bullet, a 1-pixel spacer) left out. Empty for a page of text and
 * vector drawing only.
 */
export async function pdfImageRegions(page: PDFPageProxy, minArea = 0.0005): Promise<Box[]> {
  const { OPS } = await loadPdfJs();
  const viewport = page.getViewport({ scale: 1 });
  const toView = Array.from(viewport.transform) as Matrix;
  const { fnArray, argsArray } = await page.getOperatorList();
  const paints = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObjectGroup,
  ]);
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  const boxes: Box[] = [];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? IDENTITY;
    else if (fn === OPS.transform && args && isMatrix(args)) ctm = multiply(ctm, args);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix = args?.[0];
      if (isMatrix(matrix)) ctm = multiply(ctm, matrix);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? IDENTITY;
    else if (fn !== undefined && paints.has(fn)) {
      // An image fills the unit square of the current matrix (grouped and repeated images are
      // counted by the first one's square: pdf.js groups small images drawn one after another).
      const box = unitSquareBox(multiply(toView, ctm), viewport.width, viewport.height);
      if (box && (box.x1 - box.x0) * (box.y1 - box.y0) >= minArea) boxes.push(box);
    }
  }
  return boxes;
}

function unitSquareBox(m: Matrix, width: number, height: number): Box | null {
  const corners = [apply(m, 0, 0), apply(m, 1, 0), apply(m, 0, 1), apply(m, 1, 1)];
  const xs = corners.map(([x]) => Math.min(1, Math.max(0, x / width)));
  const ys = corners.map(([, y]) => Math.min(1, Math.max(0, y / height)));
  const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  return box.x1 > box.x0 && box.y1 > box.y0 ? box : null;
}
