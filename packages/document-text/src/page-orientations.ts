/**
 * Which way up each page of a document is (the v1 API's `pages[].orientation.value`): every page is
 * drawn as it is displayed (PDF /Rotate, EXIF orientation applied), the same frame the word boxes
 * are in, and handed to tesseract's orientation detection (ocr/orientation.ts).
 *
 * Runs in an extraction thread (threads/extraction-worker.ts): rendering and OSD are heavy work.
 */
import { readFile } from 'node:fs/promises';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './document-limits';
import type { StoredFile } from './extractor';
import { readImagePages } from './image-pages';
import { detectOrientation, type Orientation } from './ocr/orientation';
import { openPdf } from './pdf-document';

/**
 * Pages past this one are not looked at (null: unknown): OSD costs 0.1–0.5 s a page, and a long
 * document should not wait minutes for it.
 */
export const MAX_ORIENTED_PAGES = 30;
/** Enough for OSD, which enlarges small pages to its own working size anyway. */
const ORIENTATION_DPI = 100;

/** One entry per page: the clockwise rotation that makes it upright, or null when not looked at. */
export async function detectPageOrientations(
  file: StoredFile,
  signal?: AbortSignal,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<(Orientation | null)[]> {
  const found: (Orientation | null)[] = [];
  if (file.mimeType === 'application/pdf') {
    // Pages drawn within the render limit; the page count is the extraction's to refuse.
    const pdf = await openPdf(new Uint8Array(await readFile(file.path, { signal })), limits);
    try {
      for (let page = 0; page < pdf.pageCount; page++) {
        signal?.throwIfAborted();
        found.push(
          page < MAX_ORIENTED_PAGES
            ? await detectOrientation(await pdf.renderPage(page, ORIENTATION_DPI))
            : null,
        );
      }
    } finally {
      await pdf.close();
    }
    return found;
  }
  for await (const image of readImagePages(file.path, file.mimeType, signal, limits)) {
    found.push(found.length < MAX_ORIENTED_PAGES ? await detectOrientation(image) : null);
  }
  return found;
}
