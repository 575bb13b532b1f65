/**
 * Placeholder for images until OCR lands (the next issue replaces this file with a real extractor
 * behind the same interface): the upload is accepted, and the job fails with a clear problem.
 */
import { ProblemError } from '../../shared/problem';
import type { DocumentText, Extractor, StoredFile } from './extractor';
import { isImage } from './sniff-mime-type';

export class ImageWithoutOcrExtractor implements Extractor {
  accepts(mimeType: string): boolean {
    return isImage(mimeType);
  }

  extract(file: StoredFile): Promise<DocumentText> {
    return Promise.reject(
      new ProblemError(
        '422-002',
        `Reading images (${file.mimeType}) needs OCR, which the reference service does not do yet; ` +
          'send a PDF with a text layer.',
      ),
    );
  }
}
