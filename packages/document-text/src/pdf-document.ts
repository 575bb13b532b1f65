/**
 * PDFs through pdf.js: opening, the password check, the page count, each page's text layer and
 * rendering pages for OCR, all on one loaded document (the file is parsed once per job).
 *
 * pdf.js is the authority on "can this PDF be read, and how many pages": like viewers, it rebuilds a
 * broken or missing cross-reference table by scanning the file, and finds the header behind leading
 * junk. What it cannot open is refused as damaged (`422-003`).
 *
 * A rendered page is the page as a viewer shows it (`/Rotate` and the CropBox applied), the same frame
 * as the text layer's word boxes and the page size.
 */
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api';
import { ProblemError } from '@extraction-review/contract/problem';
import { DEFAULT_DOCUMENT_LIMITS, renderDpiWithin, type DocumentLimits } from './document-limits';
import type { PageText } from './extractor';
import type { Box } from './geometry';
import { pdfImageRegions } from './pdf-image-regions';
import type { GreyImage } from './ocr/grey-image';
import { loadPdfDocument } from './pdfjs';
import { renderPageGrey } from './pdf-render';
import { readPageText } from './pdf-text-layer';

/** Scanned pages are rendered at this resolution for OCR (see docs/reference-documents.md). */
export const OCR_RENDER_DPI = 200;

export interface PdfPageSize {
  /** In points, of the page as displayed (after /Rotate and CropBox). */
  width: number;
  height: number;
}

export interface OpenedPdf {
  pageCount: number;
  pageSize(index: number): Promise<PdfPageSize>;
  /** The page's text layer: words with boxes, none when the page has no text layer. */
  readText(index: number): Promise<PageText>;
  /** Where the page paints pictures (pdf-image-regions.ts): none for a page of text and drawings only. */
  imageRegions(index: number): Promise<Box[]>;
  /**
   * The page as displayed, in grey, at `dpi`, or at the lower resolution (`dpi` of the answer) at
   * which it fits the document limits' `maxRenderPixels`; a `422-012` when it fits at no resolution
   * worth reading (document-limits.ts). Its size is checked before anything is drawn.
   */
  renderPage(index: number, dpi: number): Promise<RenderedPage>;
  /** Frees pdf.js's memory for this document. */
  close(): Promise<void>;
}

/** A page drawn for OCR, and the resolution it was drawn at (lower than asked for a very large page). */
export type RenderedPage = GreyImage & { dpi: number };

/**
 * Opens a PDF, or throws a `422-003` saying what is wrong: damaged beyond repair, encrypted with a
 * password (an encrypted PDF that opens without one, like most "owner-password" PDFs, is fine), or
 * without pages. pdf.js takes ownership of `data`. `limits` bound the pages drawn and the images
 * decoded in them; the page count is the caller's to check (inspection only counts).
 */
export async function openPdf(
  data: Uint8Array,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<OpenedPdf> {
  const task = await loadPdfDocument(data, { maxImagePixels: limits.maxImagePixels });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
    if (doc.numPages === 0) throw new ProblemError('422-003', 'The PDF has no pages.');
  } catch (error) {
    await task.destroy();
    throw refusal(error);
  }

  const withPage = async <T>(index: number, use: (page: PDFPageProxy) => Promise<T>): Promise<T> => {
    let page: PDFPageProxy;
    try {
      page = await doc.getPage(index + 1);
    } catch (error) {
      throw damaged(error, index);
    }
    try {
      return await use(page);
    } catch (error) {
      throw damaged(error, index);
    } finally {
      // Drops the page's parsed resources (fonts, images); the page is not read twice.
      page.cleanup();
    }
  };

  return {
    pageCount: doc.numPages,
    pageSize: (index) =>
      withPage(index, async (page) => {
        const { width, height } = page.getViewport({ scale: 1 });
        return { width, height };
      }),
    readText: (index) => withPage(index, readPageText),
    imageRegions: (index) => withPage(index, (page) => pdfImageRegions(page)),
    renderPage: (index, dpi) =>
      withPage(index, async (page) => {
        // The page box decides the canvas's size: checked before pdf.js allocates anything.
        const { width, height } = page.getViewport({ scale: 1 });
        const within = renderDpiWithin({ width, height }, dpi, limits);
        return { ...(await renderPageGrey(page, within)), dpi: within };
      }),
    // pdf.js 6 has no PDFDocumentProxy.destroy(); destroying the task frees the document.
    close: () => task.destroy(),
  };
}

/** The smallest PDF pdf.js opens without complaint (it rebuilds the missing cross-reference table). */
const TINY_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

/**
 * Pays pdf.js's first-document cost (~0.5–1.5 s: the module and its in-process worker) now rather than
 * in the first job; with `render`, also the first page drawn (Skia's set-up).
 */
export async function warmUpPdf(options: { render?: boolean } = {}): Promise<void> {
  const pdf = await openPdf(new TextEncoder().encode(TINY_PDF));
  try {
    await pdf.readText(0);
    if (options.render) await pdf.renderPage(0, 72);
  } finally {
    await pdf.close();
  }
}

function refusal(error: unknown): ProblemError {
  // pdf.js names its exceptions (they do not survive as classes across its worker boundary).
  if (error instanceof Error && error.name === 'PasswordException') {
    return new ProblemError(
      '422-003',
      'The PDF is encrypted (password-protected): send it without its password.',
      { cause: error },
    );
  }
  return damaged(error);
}

function damaged(error: unknown, pageIndex?: number): ProblemError {
  if (error instanceof ProblemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.trim().replace(/[.:]+$/, '') || 'unknown error';
  const what = pageIndex === undefined ? 'The PDF' : `Page ${pageIndex + 1} of the PDF`;
  return new ProblemError('422-003', `${what} is damaged and cannot be repaired (${reason}).`, {
    cause: error,
  });
}
