import { ProblemError } from '@extraction-review/contract/problem';
import type { DocumentText, Extractor, StoredFile } from './extractor';

/** Dispatches each file to the first extractor that accepts its detected type. */
export class ExtractorSet implements Extractor {
  constructor(private readonly extractors: readonly Extractor[]) {}

  accepts(mimeType: string): boolean {
    return this.extractors.some((e) => e.accepts(mimeType));
  }

  extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText> {
    const extractor = this.extractors.find((e) => e.accepts(file.mimeType));
    if (!extractor) {
      return Promise.reject(new ProblemError('422-002', `No extractor reads ${file.mimeType} files.`));
    }
    return extractor.extract(file, signal);
  }

  async warmUp(): Promise<void> {
    await Promise.all(this.extractors.map((e) => e.warmUp?.()));
  }

  async close(): Promise<void> {
    await Promise.all(this.extractors.map((e) => e.close?.()));
  }
}
