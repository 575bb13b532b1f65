/** Test helpers for the import of kept jobs: jobs as this browser keeps them, and the server's answers. */
import type { ImportResponse } from '@extraction-review/contract/review/schemas';
import { StoredJobSchema, type NewStoredJob, type StoredJob } from '../../../lib/document-store';
import { queueDocument } from './fixtures';

export const V2_MODEL = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';

export function keptJob(overrides: Partial<NewStoredJob> = {}): StoredJob {
  return StoredJobSchema.parse({
    jobId: 'job-1',
    modelId: V2_MODEL,
    filename: 'invoice.pdf',
    file: new Blob(['%PDF-1.7'], { type: 'application/pdf' }),
    mimeType: 'application/pdf',
    createdAt: '2026-01-05T08:00:00.000Z',
    ...overrides,
  });
}

export function keptV1Job(mode: 'sync' | 'async', overrides: Partial<NewStoredJob> = {}): StoredJob {
  return keptJob({
    api: 'v1',
    v1: { account: 'mindee', name: 'expense_receipts', version: '5', mode },
    modelId: 'mindee/expense_receipts/v5',
    filename: 'receipt.jpg',
    file: null,
    ...overrides,
  });
}

/** A v2 extraction response, as the service answers it (enough of it for the import). */
export function v2Answer(jobId: string) {
  return { inference: { id: `inf-${jobId}`, job: { id: jobId }, result: { fields: {} } } };
}

export function imported(imported: boolean, id = 'D1'): ImportResponse {
  return {
    document: { ...queueDocument({ id }), result: null, error: null, corrections: {} },
    imported,
  };
}
