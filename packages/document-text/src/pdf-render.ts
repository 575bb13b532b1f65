/**
 * A PDF page drawn by pdf.js onto an @napi-rs/canvas (Skia) canvas: the page as a viewer shows it
 * (`/Rotate` and the CropBox applied, annotations with an appearance drawn), on white.
 */
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { collectYoung } from './collect-young';
import type { GreyImage } from './ocr/grey-image';

/**
 * The page at `dpi`. The canvas covers the page's last partial pixel (as MuPDF did: 500 pt at
 * 150 dpi is 1041.7 px, drawn on 1042), with a small tolerance so that 612 pt at 200 dpi stays 1700.
 */
export async function renderPageCanvas(page: PDFPageProxy, dpi: number): Promise<Canvas> {
  const viewport = page.getViewport({ scale: dpi / 72 });
  const canvas = createCanvas(pixels(viewport.width), pixels(viewport.height));
  const canvasContext = canvas.getContext('2d');
  // pdf.js types name DOM canvases; the Skia canvas implements what pdf.js uses of them (pdf.js itself
  // creates its scratch canvases with @napi-rs/canvas in Node).
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: canvasContext as unknown as CanvasRenderingContext2D,
    viewport,
  }).promise;
  return canvas;
}

const pixels = (size: number): number => Math.max(1, Math.ceil(size - 1e-3));

/**
 * The page at `dpi` in grey, for OCR. The canvas's pixel copy is dropped and collected before this
 * returns (collect-young.ts: V8 does not count it, and kept every page's until it saw a reason to
 * collect), and the canvas emptied.
 */
export async function renderPageGrey(page: PDFPageProxy, dpi: number): Promise<GreyImage> {
  const canvas = await renderPageCanvas(page, dpi);
  const { width, height } = canvas;
  let data: Uint8Array;
  try {
    data = greyFromRgba(canvas.getContext('2d').getImageData(0, 0, width, height).data);
  } finally {
    releaseCanvas(canvas);
  }
  await collectYoung();
  return { data, width, height };
}

/**
 * Luma with the weights MuPDF's DeviceGray used (0.30 R + 0.59 G + 0.11 B, in 1/256ths), so that OCR
 * sees the same grey levels as before. Alpha is ignored: pdf.js paints an opaque white page first.
 */
export function greyFromRgba(rgba: Uint8ClampedArray | Uint8Array): Uint8Array {
  const grey = new Uint8Array(rgba.length / 4);
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) {
    grey[i] = ((rgba[p] ?? 0) * 77 + (rgba[p + 1] ?? 0) * 151 + (rgba[p + 2] ?? 0) * 28) >> 8;
  }
  return grey;
}

/**
 * Frees the canvas's pixels now. Skia's surface lives outside V8's heap, which does not count it: a
 * thread drawing page after page kept every surface until a garbage collection it saw no reason for
 * (100 blank Letter pages at 200 dpi: 3.4 GB). A canvas of no size holds none; pdf.js frees its
 * scratch canvases the same way.
 */
export function releaseCanvas(canvas: Canvas): void {
  canvas.width = 1;
  canvas.height = 1;
}
