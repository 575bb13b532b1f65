/**
 * The words of one page of a file, for the review's page words (server/app/review/words/page-words.ts):
 * from the PDF's text layer where the page has one (with the words OCR reads in its pictures), else
 * from OCR of the page as displayed. Runs in a thread (threads/extraction-worker.ts), bounded by the document limits like a job's extraction: a
 * PDF of too many pages, a page too large to render, a picture too large to decode is a `422-012`.
 */
import { readFile } from 'node:fs/promises';
import { requirePageCount, type DocumentLimits } from './document-limits';
import type { PageText, StoredFile, Word } from './extractor';
import { readImagePages } from './image-pages';
import { sharedOcr } from './ocr/tesseract-ocr';
import { OCR_RENDER_DPI, openPdf } from './pdf-document';
import { cropGrey, pictureReading } from './picture-words';
import type { Orientation } from './ocr/orientation';
import { readUpright } from './upright-words';

export interface PageReading {
  pageCount: number;
  /**
   * The page asked for, or null when the document has no such page. A page with a text layer and
   * pictures also has `pictureWords`: the words OCR reads in its pictures where the text layer has
   * none (picture-words.ts). A picture has `turn`: the clockwise turn that shows it upright (a photo
   * taken sideways, upright-words.ts), its words' boxes still in its frame as stored.
   */
  page: (PageText & { source: 'text-layer' | 'ocr'; pictureWords?: Word[]; turn?: Orientation }) | null;
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
      // A photo may have been taken sideways: read upright, boxes in the picture's own frame, its turn told.
      const { words, turn } = await readUpright(image, sharedOcr(), signal);
      const page = { index, width: image.width, height: image.height, words, source: 'ocr' as const, turn };
      return { pageCount: at + 1, page };
    }
    at++;
  }
  return { pageCount: at, page: null };
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
    if (index >= pdf.pageCount) return { pageCount: pdf.pageCount, page: null };
    const text = await pdf.readText(index);
    signal?.throwIfAborted();
    if (text.words.length > 0) {
      // The text layer, and what its pictures print (a name in a logo) that the text layer lacks.
      const reading = pictureReading(await pdf.imageRegions(index), text.words);
      if (!reading.crop) return { pageCount: pdf.pageCount, page: { ...text, source: 'text-layer' } };
      const image = await pdf.renderPage(index, OCR_RENDER_DPI);
      const read = await sharedOcr().recognize(cropGrey(image, reading.crop), { dpi: image.dpi, signal });
      const pictureWords = reading.keep(read);
      return { pageCount: pdf.pageCount, page: { ...text, source: 'text-layer', pictureWords } };
    }
    const { width, height } = await pdf.pageSize(index);
    // Drawn within DOCUMENT_MAX_RENDER_PIXELS (at a lower resolution for a very large page).
    const image = await pdf.renderPage(index, OCR_RENDER_DPI);
    const words = await sharedOcr().recognize(image, { dpi: image.dpi, signal });
    return { pageCount: pdf.pageCount, page: { index, width, height, words, source: 'ocr' } };
  } finally {
    await pdf.close();
  }
}
