/**
 * PDFs, page by page: the text layer where a page has one (pdf.js, exact boxes, confidence 1), OCR of
 * the rendered page where it has none (MuPDF at OCR_RENDER_DPI, then tesseract). A scanned PDF is all
 * OCR, a mixed one is read page by page, and a blank page comes back with no words.
 *
 * MuPDF opens the file first: it decides whether the PDF can be read at all (damaged, encrypted, no
 * pages: a `422-003`) and how many pages it has. When pdf.js cannot read a PDF that MuPDF repaired, or
 * counts its pages differently, every page is OCR'd: the document is still read, only without a text layer.
 */
import { readFile } from 'node:fs/promises';
import { ProblemError } from '../../shared/problem';
import type { DocumentText, Extractor, PageText, StoredFile } from './extractor';
import { sharedOcr, type TesseractOcr } from './ocr/tesseract-ocr';
import { loadMupdf, OCR_RENDER_DPI, openPdf, type OpenedPdf } from './pdf-document';
import { PdfTextExtractor, readPdfText } from './pdf-text-extractor';
import { requireSupportedType, SNIFF_BYTES } from './sniff-mime-type';

export class PdfExtractor implements Extractor {
  constructor(private readonly ocr: () => TesseractOcr = sharedOcr) {}

  accepts(mimeType: string): boolean {
    return mimeType === 'application/pdf';
  }

  async extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText> {
    const data = new Uint8Array(await readFile(file.path, { signal }));
    return readPdf(data, this.ocr(), signal);
  }

  /** pdf.js (~1.5 s for the first document of a thread), MuPDF (~0.1 s) and the OCR engine (~0.5 s). */
  async warmUp(): Promise<void> {
    await Promise.all([new PdfTextExtractor().warmUp(), loadMupdf(), this.ocr().warmUp()]);
  }
}

export async function readPdf(
  data: Uint8Array,
  ocr: TesseractOcr,
  signal?: AbortSignal,
): Promise<DocumentText> {
  // What inspection refuses, extraction refuses too (a job resumed from before inspection existed).
  if (
    requireSupportedType(data.subarray(0, SNIFF_BYTES), data.subarray(-SNIFF_BYTES)) !== 'application/pdf'
  ) {
    throw new ProblemError('422-003', 'The file is not a PDF (detected from its content).');
  }
  const pdf = await openPdf(data);
  try {
    const textLayer = await readTextLayer(data, pdf.pageCount, signal);
    const pages: PageText[] = [];
    for (let index = 0; index < pdf.pageCount; index++) {
      signal?.throwIfAborted();
      const text = textLayer?.[index];
      pages.push(text && text.words.length > 0 ? text : await ocrPage(pdf, index, ocr, signal));
    }
    return { pageCount: pdf.pageCount, pages };
  } finally {
    pdf.close();
  }
}

/** Each page's text layer, or undefined when pdf.js cannot read the file as MuPDF does. */
async function readTextLayer(
  data: Uint8Array,
  pageCount: number,
  signal?: AbortSignal,
): Promise<PageText[] | undefined> {
  try {
    // pdf.js takes ownership of its buffer; MuPDF still needs ours for rendering.
    const text = await readPdfText(data.slice(), signal);
    return text.pageCount === pageCount ? text.pages : undefined;
  } catch (error) {
    if (signal?.aborted) throw error;
    // MuPDF opened it (it repairs more than pdf.js does): OCR every page instead.
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
  const { width, height } = pdf.pageSize(index);
  const image = pdf.renderPage(index, OCR_RENDER_DPI);
  const words = await ocr.recognize(image, { dpi: OCR_RENDER_DPI, signal });
  return { index, width, height, words, source: 'ocr' };
}
