/**
 * The operator's documents, kept in the browser (IndexedDB through idb-keyval): the API never returns
 * the file itself, and the review needs it after a reload. One record per job, keyed by job id.
 */
import { createStore, del, get, set, values } from 'idb-keyval';
import { z } from 'zod';

const store = createStore('extraction-review', 'documents');

export const StoredDocumentSchema = z.object({
  jobId: z.string().min(1),
  modelId: z.string().min(1),
  filename: z.string(),
  file: z.instanceof(Blob),
  createdAt: z.iso.datetime(),
});

export type StoredDocument = z.infer<typeof StoredDocumentSchema>;

export const documentStoreKeys = {
  all: ['document-store'] as const,
  detail: (jobId: string) => [...documentStoreKeys.all, jobId] as const,
};

export async function saveDocument(doc: StoredDocument): Promise<void> {
  await set(doc.jobId, StoredDocumentSchema.parse(doc), store);
}

/** The stored document of a job, or null when this browser never saw it (or it was cleared). */
export async function loadDocument(jobId: string): Promise<StoredDocument | null> {
  const raw: unknown = await get(jobId, store);
  if (raw === undefined) return null;
  const parsed = StoredDocumentSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export async function listDocuments(): Promise<StoredDocument[]> {
  const all: unknown[] = await values(store);
  return all.flatMap((raw) => {
    const parsed = StoredDocumentSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

export async function deleteDocument(jobId: string): Promise<void> {
  await del(jobId, store);
}
