/**
 * The recorded v2 results of the shared corpus, read as the app reads a response (ExtractionResponse),
 * for the review's unit tests. Node APIs only: the tests run in jsdom on Node.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesDir } from './fixtures-dir';
import { ExtractionResponse } from '@extraction-review/contract/v2/schemas';

export function extractionFixture(name: string): ExtractionResponse {
  const file = path.join(fixturesDir, 'v2', 'products', 'extraction', name);
  return ExtractionResponse.parse(JSON.parse(readFileSync(file, 'utf8')));
}
