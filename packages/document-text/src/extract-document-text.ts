/**
 * Raw extraction without the job machinery: file → words with positions, in this thread. The worker
 * threads use `createDocumentExtractor`; benchmarks and tests time `extractDocumentText` alone.
 */
import { readDocumentInfo } from './document-info';
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './document-limits';
import { ExtractorSet } from './extractor-set';
import type { DocumentText, Extractor } from './extractor';
import { ImageExtractor } from './image-extractor';
import { sharedOcr } from './ocr/tesseract-ocr';
import { PdfExtractor } from './pdf-extractor';

/**
 * Every reader of the service: PDFs (text layer, OCR for pages without one) and pictures (OCR), each
 * bounded by `limits` (pages, rendered and decoded pixels: document-limits.ts).
 */
export function createDocumentExtractor(limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS): Extractor {
  return new ExtractorSet([new PdfExtractor(sharedOcr, limits), new ImageExtractor(sharedOcr, limits)]);
}

let extractor: Extractor | undefined;

/**
 * The words of a document, read in this thread (no worker pool, no time-out): what a job's extraction
 * does, for benchmarks. `mimeType` defaults to the type detected from the content (which also checks
 * that the file is readable, as inspection does at enqueue). The OCR engine stays loaded for the next
 * call; `closeDocumentExtraction()` releases it.
 */
export async function extractDocumentText(
  path: string,
  mimeType?: string,
  signal?: AbortSignal,
): Promise<DocumentText> {
  const type = mimeType ?? (await readDocumentInfo(path, signal)).mimeType;
  extractor ??= createDocumentExtractor();
  return extractor.extract({ path, mimeType: type }, signal);
}

/** Loads pdf.js (and draws a first page) and the OCR engine, so that a timed call measures extraction alone. */
export async function warmUpDocumentExtraction(): Promise<void> {
  extractor ??= createDocumentExtractor();
  await extractor.warmUp?.();
}

export async function closeDocumentExtraction(): Promise<void> {
  await sharedOcr().close();
}
