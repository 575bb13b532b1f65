/**
 * Pictures (JPEG, PNG, WebP, TIFF with every page, HEIC/HEIF), read by OCR: each page is decoded
 * upright as displayed (image-pages.ts), then tesseract reads it (ocr/tesseract-ocr.ts). Word boxes
 * are relative to the displayed picture; a page's size is its displayed size in pixels.
 */
import { DEFAULT_DOCUMENT_LIMITS, type DocumentLimits } from './document-limits';
import type { DocumentText, Extractor, PageText, StoredFile } from './extractor';
import { readImagePages } from './image-pages';
import { sharedOcr, type TesseractOcr } from './ocr/tesseract-ocr';
import { SUPPORTED_MIME_TYPES } from './sniff-mime-type';

const IMAGE_TYPES: ReadonlySet<string> = new Set(
  SUPPORTED_MIME_TYPES.filter((type) => type.startsWith('image/')),
);

export class ImageExtractor implements Extractor {
  constructor(
    private readonly ocr: () => TesseractOcr = sharedOcr,
    private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  ) {}

  accepts(mimeType: string): boolean {
    return IMAGE_TYPES.has(mimeType);
  }

  async extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText> {
    const ocr = this.ocr();
    const pages: PageText[] = [];
    for await (const image of readImagePages(file.path, file.mimeType, signal, this.limits)) {
      const words = await ocr.recognize(image, { signal });
      pages.push({ index: pages.length, width: image.width, height: image.height, words, source: 'ocr' });
    }
    return { pageCount: pages.length, pages };
  }

  async warmUp(): Promise<void> {
    await this.ocr().warmUp();
  }
}
