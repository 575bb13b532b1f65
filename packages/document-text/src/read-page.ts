/**
 * The words of one page of a file, for the review's page words (server/app/review/words/page-words.ts):
 * from the PDF's text layer where the page has one, else from OCR of the page as displayed. Runs in a
 * thread (threads/extraction-worker.ts), bounded by the document limits like a job's extraction: a
 * PDF of too many pages, a page too large to render, a picture too large to decode is a `422-012`.
 */
import { readFile } from 'node:fs/promises';
import { requirePageCount, type DocumentLimits } from './document-limits';
import type { PageText, StoredFile } from './extractor';
import { readImagePages } from './image-pages';
import { sharedOcr } from './ocr/tesseract-ocr';
import { OCR_RENDER_DPI, openPdf } from './pdf-document';

export interface PageReading {
  pageCount: number;
  /** The page asked for, or null when the document has no such page. */
  page: (PageText & { source: 'text-layer' | 'ocr' }) | null;
  /**
   * The other pages whose text layer has words: one pass over a PDF's text layer reads them all, and
   * the caller keeps them for the next clicks.
   */
  textPages: PageText[];
}

export async function readPage(
  file: StoredFile,
  index: number,
  limits: DocumentLimits,
  signal?: AbortSignal,
): Promise<PageReading> {
  if (file.mimeType === 'application/pdf') return readPdfPage(file, index, limits, signal);
  // Pictures: one page each, but a TIFF's; the pages before the one asked for are decoded to reach it.
  let at = 0;
  for await (const image of readImagePages(file.path, file.mimeType, signal, limits)) {
    if (at === index) {
      const words = await sharedOcr().recognize(image, { signal });
      const page = { index, width: image.width, height: image.height, words, source: 'ocr' as const };
      return { pageCount: at + 1, page, textPages: [] };
    }
    at++;
  }
  return { pageCount: at, page: null, textPages: [] };
}

async function readPdfPage(
  file: StoredFile,
  index: number,
  limits: DocumentLimits,
  signal?: AbortSignal,
): Promise<PageReading> {
  const pdf = await openPdf(new Uint8Array(await readFile(file.path, { signal })), limits);
  try {
    requirePageCount(pdf.pageCount, limits);
    if (index >= pdf.pageCount) return { pageCount: pdf.pageCount, page: null, textPages: [] };
    const textPages: PageText[] = [];
    let wanted: PageText | undefined;
    for (let at = 0; at < pdf.pageCount; at++) {
      signal?.throwIfAborted();
      const text = await pdf.readText(at);
      if (at === index) wanted = text;
      else if (text.words.length > 0) textPages.push(text);
    }
    if (wanted && wanted.words.length > 0) {
      return { pageCount: pdf.pageCount, page: { ...wanted, source: 'text-layer' }, textPages };
    }
    const { width, height } = await pdf.pageSize(index);
    // Drawn within DOCUMENT_MAX_RENDER_PIXELS (at a lower resolution for a very large page).
    const image = await pdf.renderPage(index, OCR_RENDER_DPI);
    const words = await sharedOcr().recognize(image, { dpi: image.dpi, signal });
    return { pageCount: pdf.pageCount, page: { index, width, height, words, source: 'ocr' }, textPages };
  } finally {
    await pdf.close();
  }
}
