/**
 * A RAG store on a temporary SQLite file, and processed inferences to feed it, for RAG tests.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FieldResult } from '@extraction-review/document-text/api-types';
import type { LaidOutPage } from '@extraction-review/reference/rag/document-terms';
import { RagStore } from '@extraction-review/reference/rag/rag-store';
import { acmeInvoice, laidOut } from './rag-layout';

export const RAG_MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
export const OTHER_MODEL_ID = '0f9c2a4e-8d7b-4c61-a5e3-2b1d9f6c7a80';

export interface TestRagDatabase {
  file: string;
  db: Database.Database;
  store: RagStore;
  /** Closes and opens the file again, as a restart would. */
  reopen(): TestRagDatabase;
  remove(): Promise<void>;
}

export async function openRagDatabase(): Promise<TestRagDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), 'reference-rag-'));
  const file = path.join(dir, 'reference.sqlite');
  let current: Database.Database | undefined;
  const open = (): TestRagDatabase => {
    current?.close();
    current = new Database(file);
    return { file, db: current, store: new RagStore(current), reopen: open, remove };
  };
  const remove = async (): Promise<void> => {
    if (current?.open) current.close();
    await rm(dir, { recursive: true, force: true });
  };
  return open();
}

/** A processed inference of `modelId` with these result fields, as the job service stores it. */
export function processedInference(modelId: string, fields: Record<string, FieldResult>) {
  return {
    id: randomUUID(),
    jobId: randomUUID(),
    body: { model: { id: modelId }, result: { fields } },
  };
}

export const invoiceA: LaidOutPage[] = laidOut([
  acmeInvoice({
    number: 'INV-2025-001',
    date: '14.03.2025',
    customer: 'Initech Holdings AG',
    items: [
      ['Steel bolts M8 x 200', '48.00'],
      ['Hex nuts M8 x 500', '35.50'],
    ],
    total: '83.50',
  }),
]);

export const invoiceB: LaidOutPage[] = laidOut([
  acmeInvoice({
    number: 'INV-2025-017',
    date: '02.04.2025',
    customer: 'Umbrella Logistics SA',
    items: [
      ['Copper wire 2.5mm 100m', '120.00'],
      ['Cable ties black x 1000', '18.90'],
    ],
    total: '138.90',
  }),
]);

/** What field finding might give for an ACME invoice: the supplier's name cut short. */
export const extractedFields = (): Record<string, FieldResult> => ({
  supplier_name: { value: 'ACME Industrial', locations: [], confidence: 'Medium' },
  total_amount: { value: null, locations: [], confidence: 'Low' },
});
