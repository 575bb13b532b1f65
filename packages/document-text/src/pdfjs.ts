/**
 * pdf.js (legacy build, for Node) loaded once per thread, and the options every document is opened
 * with. pdf.js is Apache-2.0 and renders through @napi-rs/canvas (MIT): see
 * docs/decisions/0006-no-mupdf.md for why this replaced MuPDF (AGPL).
 */
import './node20-polyfills';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentLoadingTask } from 'pdfjs-dist/types/src/display/api';

type PdfJs = typeof PdfJsModule;

// Loaded on first use: pdf.js (and its in-process "fake worker") costs ~0.5 s to load.
let pdfjsModule: Promise<PdfJs> | undefined;
export const loadPdfJs = (): Promise<PdfJs> => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// pdf.js in Node reads these from disk; the trailing slash is required.
const assetDir = (name: string): string => `${path.join(pdfjsDir, name)}${path.sep}`;

/**
 * Starts loading a PDF. pdf.js takes ownership of `data`: pass a copy if the caller still needs it.
 * Destroy the returned task when done (pdf.js 6 has no `PDFDocumentProxy.destroy()`).
 */
export async function loadPdfDocument(
  data: Uint8Array,
  options: { maxImagePixels?: number } = {},
): Promise<PDFDocumentLoadingTask> {
  const pdfjs = await loadPdfJs();
  return pdfjs.getDocument({
    data,
    cMapUrl: assetDir('cmaps'),
    cMapPacked: true,
    standardFontDataUrl: assetDir('standard_fonts'),
    wasmUrl: assetDir('wasm'),
    iccUrl: assetDir('iccs'),
    // Exposes glyph widths on the font objects (font-glyph-widths.ts).
    fontExtraProperties: true,
    // Warnings (a rebuilt cross-reference table, a broken image) are not printed.
    verbosity: 0,
    // An image inside a page larger than this is not decoded (the page is drawn without it): a page
    // of a few bytes can hold an image XObject declaring 30 000 × 30 000 pixels (document-limits.ts).
    ...(options.maxImagePixels === undefined ? {} : { maxImageSize: options.maxImagePixels }),
  });
}
