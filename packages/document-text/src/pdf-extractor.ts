/**
 * PDFs, page by page: the text layer where a page has one (pdf.js, exact boxes, confidence 1), OCR of
 * the rendered page where it has none (pdf.js at OCR_RENDER_DPI, then tesseract). A scanned PDF is all
 * OCR, a mixed one is read page by page, and a blank page comes back with no words.
 *
 * One pdf.js document serves the whole job (pdf-document.ts): opening it decides whether the PDF can be
 * read at all (damaged, encrypted, no pages: a `422-003`) and how many pages it has. A page whose text
 * layer cannot be read is OCR'd instead: the document is still read, only without that page's text layer.
 */
import { readFile } from 'node:fs/promises';
import { ProblemError } from '@extraction-review/contract/problem';
import { DEFAULT_DOCUMENT_LIMITS, requirePageCount, type DocumentLimits } from './document-limits';
import type { DocumentText, Extractor, PageText, StoredFile } from './extractor';
import { sharedOcr, type TesseractOcr } from './ocr/tesseract-ocr';
import { OCR_RENDER_DPI, openPdf, warmUpPdf, type OpenedPdf } from './pdf-document';
import { requireSupportedType, SNIFF_BYTES } from './sniff-mime-type';

export class PdfExtractor implements Extractor {
  constructor(
    private readonly ocr: () => TesseractOcr = sharedOcr,
    private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {}

  accepts(mimeType: string): boolean {
    return mimeType === 'application/pdf';
  }

  async extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText> {
    const data = new Uint8Array(await readFile(file.path, { signal }));
    return readPdf(data, this.ocr(), signal, this.limits);
  }

  /** pdf.js and its first rendered page (~1.5 s for the first document of a thread), the OCR engine (~0.5 s). */
  async warmUp(): Promise<void> {
    await Promise.all([warmUpPdf({ render: true }), this.ocr().warmUp()]);
  }
}

export async function readPdf(
  data: Uint8Array,
  ocr: TesseractOcr,
  signal?: AbortSignal,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): Promise<DocumentText> {
  // What inspection refuses, extraction refuses too (a job resumed from before inspection existed).
  if (
    requireSupportedType(data.subarray(0, SNIFF_BYTES), data.subarray(-SNIFF_BYTES)) !== 'application/pdf'
  ) {
    throw new ProblemError('422-003', 'The file is not a PDF (detected from its content).');
  }
  const pdf = await openPdf(data, limits);
  try {
    // Before any page is read: a 5,000-page PDF is seconds of pdf.js even without OCR.
    requirePageCount(pdf.pageCount, limits);
    const pages: PageText[] = [];
    for (let index = 0; index < pdf.pageCount; index++) {
      signal?.throwIfAborted();
      const text = await readTextLayer(pdf, index, signal);
      pages.push(text && text.words.length > 0 ? text : await ocrPage(pdf, index, ocr, signal));
    }
    return { pageCount: pdf.pageCount, pages };
  } finally {
    await pdf.close();
  }
}

/** The page's text layer, or undefined when pdf.js cannot read it (the page is then OCR'd). */
async function readTextLayer(
  pdf: OpenedPdf,
  index: number,
  signal?: AbortSignal,
): Promise<PageText | undefined> {
  try {
    return await pdf.readText(index);
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof ProblemError) return undefined;
    throw error;
  }
}

async function ocrPage(
  pdf: OpenedPdf,
  index: number,
  ocr: TesseractOcr,
  signal?: AbortSignal,
): Promise<PageText> {
  const { width, height } = await pdf.pageSize(index);
  // A very large page comes back drawn at a lower resolution (document-limits.ts), which OCR is told.
  const image = await pdf.renderPage(index, OCR_RENDER_DPI);
  const words = await ocr.recognize(image, { dpi: image.dpi, signal });
  return { index, width, height, words, source: 'ocr' };
}
