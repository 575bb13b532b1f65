/**
 * The text layer of a PDF alone, every page (pdf-text-layer.ts): no OCR. The service reads PDFs with
 * PdfExtractor (which OCRs the pages without a text layer); this one serves tests of the text layer.
 */
import { readFile } from 'node:fs/promises';
import type { DocumentText, Extractor, PageText, StoredFile } from './extractor';
import { openPdf, warmUpPdf } from './pdf-document';

export class PdfTextExtractor implements Extractor {
  accepts(mimeType: string): boolean {
    return mimeType === 'application/pdf';
  }

  async extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText> {
    return readPdfText(new Uint8Array(await readFile(file.path, { signal })), signal);
  }

  /** pdf.js's first document in a process costs ~1.5 s (module and in-process worker set-up). */
  async warmUp(): Promise<void> {
    await warmUpPdf();
  }
}

/**
 * The text layer of every page (a page without one comes back with no words), or the `422-003` of
 * `openPdf`. pdf.js takes ownership of `data`: pass a copy if the caller still needs it.
 */
export async function readPdfText(data: Uint8Array, signal?: AbortSignal): Promise<DocumentText> {
  const pdf = await openPdf(data);
  try {
    const pages: PageText[] = [];
    for (let index = 0; index < pdf.pageCount; index++) {
      signal?.throwIfAborted();
      pages.push(await pdf.readText(index));
    }
    return { pageCount: pdf.pageCount, pages };
  } finally {
    await pdf.close();
  }
}
