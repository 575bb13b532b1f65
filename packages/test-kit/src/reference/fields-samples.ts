/**
 * The fixture documents that have a recorded hosted result, with the seeded model to read them with:
 * what the accuracy bench and tests compare our extraction with (evaluate/accuracy.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fixturesDir } from '../fixtures-dir';
import type { ExtractionLike } from '../evaluate/accuracy';
import { v1ToExtraction } from '../evaluate/v1-reference';

export const INVOICE_MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
export const RECEIPT_MODEL_ID = '7c1f3e2a-5b8d-4c6e-9f0a-2d4b6e8a1c3f';

export interface SampleDocument {
  /** Short name for reports. */
  name: string;
  /** The document, relative to the fixtures directory. */
  document: string;
  modelId: string;
  /** The recorded result, relative to the fixtures directory, and its API version. */
  reference: string;
  referenceVersion: 'v1' | 'v2';
}

export const SAMPLE_DOCUMENTS: readonly SampleDocument[] = [
  {
    name: 'v2 financial_document (invoice photo)',
    document: 'v2/products/extraction/financial_document/default_sample.jpg',
    modelId: INVOICE_MODEL_ID,
    reference: 'v2/products/extraction/financial_document/default_sample.json',
    referenceVersion: 'v2',
  },
  {
    name: 'v1 invoices (Turnpike Designs)',
    document: 'v1/products/invoices/default_sample.jpg',
    modelId: INVOICE_MODEL_ID,
    reference: 'v1/products/invoices/response_v4/default_sample.json',
    referenceVersion: 'v1',
  },
  {
    name: 'v1 expense_receipts (Clachan)',
    document: 'v1/products/expense_receipts/default_sample.jpg',
    modelId: RECEIPT_MODEL_ID,
    reference: 'v1/products/expense_receipts/response_v5/complete.json',
    referenceVersion: 'v1',
  },
];

export const samplePath = (relative: string): string => path.join(fixturesDir, relative);

/** The recorded result, in the v2 shape (v1 predictions restated by v1ToExtraction). */
export async function loadReference(sample: SampleDocument): Promise<ExtractionLike> {
  const json: unknown = JSON.parse(await readFile(samplePath(sample.reference), 'utf8'));
  return sample.referenceVersion === 'v1' ? v1ToExtraction(json) : (json as ExtractionLike);
}
