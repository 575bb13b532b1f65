/**
 * The operator's jobs and their documents, kept in the browser (IndexedDB through idb-keyval): the API
 * never returns the file itself, the review needs it after a reload, and the job list must survive one.
 *
 * One record per job, keyed by job id, holding the file itself (a Blob: IndexedDB stores it as is, and
 * reading a record back gives a handle, not a copy in memory). A job sent by URL has no file. Records
 * written by earlier versions (without `mimeType`, `source`, …) still read, with defaults.
 *
 * The logic runs over a small key-value interface (`KeyValueBackend`), so it is tested without
 * IndexedDB; the app uses the idb-keyval store below.
 */
import { createStore, del, get, set, values } from 'idb-keyval';
import { z } from 'zod';

/** The options a job was sent with, for the list ("raw_text on, data schema replaced"). */
export const SentOptionsSchema = z.object({
  alias: z.string().optional(),
  raw_text: z.boolean().optional(),
  polygon: z.boolean().optional(),
  confidence: z.boolean().optional(),
  rag: z.boolean().optional(),
  textContext: z.boolean().optional(),
  webhookIds: z.array(z.string()).optional(),
  dataSchemaReplaced: z.boolean().optional(),
});
export type SentOptions = z.infer<typeof SentOptionsSchema>;

/** The v1 API a prediction was sent to, and how: what its page needs to ask for it again. */
export const StoredV1Schema = z.object({
  account: z.string().min(1),
  name: z.string().min(1),
  version: z.string().min(1),
  /** `sync`: `jobId` is the document's id (predict answers the document); `async`: the queue's job id. */
  mode: z.enum(['sync', 'async']),
});
export type StoredV1 = z.infer<typeof StoredV1Schema>;

export const StoredJobSchema = z
  .object({
    /** Which API the document was sent to; records written before v1 uploads existed are v2's. */
    api: z.enum(['v1', 'v2']).default('v2'),
    /** The v1 product and mode, for a v1 record (null for v2). */
    v1: StoredV1Schema.nullable().default(null),
    jobId: z.string().min(1),
    /** The v2 model's id; for a v1 record, the product as `account/name/vN` (what the list shows). */
    modelId: z.string().min(1),
    /** The model's name when it was sent, for the list (ids are not for people). */
    modelName: z.string().nullable().default(null),
    filename: z.string(),
    /** The document as uploaded; null for a job sent by URL (the browser never had the bytes). */
    file: z.instanceof(Blob).nullable(),
    /** Detected from the bytes before sending (`application/pdf`, `image/png`, …); null when unknown. */
    mimeType: z.string().nullable().default(null),
    size: z.number().int().min(0).nullable().default(null),
    source: z.enum(['file', 'url']).default('file'),
    /** The document's URL, for a job sent by URL. */
    url: z.string().nullable().default(null),
    /** When this browser enqueued it (ISO 8601). */
    createdAt: z.iso.datetime(),
    options: SentOptionsSchema.default({}),
    /**
     * The job as the service last reported it, once it can no longer change (final, every webhook
     * delivered): the list shows it after a reload without asking again. Checked by whoever reads it
     * (the API's Job schema), as the API's shape is not this store's business.
     */
    settledJob: z.unknown().default(null),
    /**
     * The settled job's extraction result (the body behind its `result_url`), kept in the same record
     * so that a reload reads it with the document: it never changes once processed, and a model that
     * deletes it after the first fetch would answer 404 to a second one. Checked by whoever reads it
     * (the API's ExtractionResponse schema), as for `settledJob`.
     */
    settledResult: z.unknown().default(null),
  })
  // A v1 record without its product could never be asked for again.
  .refine((job) => job.api === 'v2' || job.v1 !== null, { error: 'A v1 record needs its product' });
export type StoredJob = z.infer<typeof StoredJobSchema>;
/** What `saveJob` takes: the defaults may be left out. */
export type NewStoredJob = z.input<typeof StoredJobSchema>;

/** A stored job that has its document: what the review opens. */
export type StoredDocument = StoredJob & { file: Blob };

export const documentStoreKeys = {
  all: ['document-store'] as const,
  list: () => [...documentStoreKeys.all, 'list'] as const,
  detail: (jobId: string) => [...documentStoreKeys.all, jobId] as const,
};

/** What the store needs of a key-value store: idb-keyval's four calls. */
export interface KeyValueBackend {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  values(): Promise<unknown[]>;
}

export interface DocumentStore {
  saveJob(job: NewStoredJob): Promise<StoredJob>;
  /** Every readable job, newest first. */
  listJobs(): Promise<StoredJob[]>;
  loadJob(jobId: string): Promise<StoredJob | null>;
  /** The job with its document, or null when this browser does not hold the document. */
  loadDocument(jobId: string): Promise<StoredDocument | null>;
  /**
   * Changes a stored job; nothing when it is not stored (any more). Changes are made one after the
   * other, so that two made together (the settled job, then its result) do not undo each other.
   */
  updateJob(jobId: string, patch: Partial<Pick<StoredJob, 'settledJob' | 'settledResult'>>): Promise<void>;
  removeJob(jobId: string): Promise<void>;
}

export function createDocumentStore(backend: KeyValueBackend): DocumentStore {
  const read = (raw: unknown): StoredJob | null => {
    const parsed = StoredJobSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  };
  const loadJob = async (jobId: string) => read(await backend.get(jobId));
  // Each update reads the record and writes it whole: the next waits for the last to be written.
  let updates: Promise<unknown> = Promise.resolve();
  return {
    async saveJob(job) {
      const checked = StoredJobSchema.parse(job);
      await backend.set(checked.jobId, checked);
      return checked;
    },
    async listJobs() {
      const jobs = (await backend.values()).flatMap((raw) => read(raw) ?? []);
      // ISO 8601 in UTC sorts as text; the job id breaks ties so the order is stable.
      return jobs.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.jobId.localeCompare(b.jobId));
    },
    loadJob,
    async loadDocument(jobId) {
      const job = await loadJob(jobId);
      return job?.file ? { ...job, file: job.file } : null;
    },
    updateJob(jobId, patch) {
      const update = updates.then(async () => {
        const job = await loadJob(jobId);
        if (job) await backend.set(jobId, StoredJobSchema.parse({ ...job, ...patch }));
      });
      updates = update.catch(() => undefined);
      return update;
    },
    removeJob: (jobId) => backend.del(jobId),
  };
}

/** A backend in memory, for tests and for browsers without IndexedDB (private modes of old browsers). */
export function memoryBackend(): KeyValueBackend {
  const map = new Map<string, unknown>();
  return {
    get: async (key) => map.get(key),
    set: async (key, value) => void map.set(key, value),
    del: async (key) => void map.delete(key),
    values: async () => [...map.values()],
  };
}

/** The app's store: IndexedDB database `extraction-review`, object store `documents`. */
function indexedDbBackend(): KeyValueBackend {
  const store = createStore('extraction-review', 'documents');
  return {
    get: (key) => get(key, store),
    set: (key, value) => set(key, value, store),
    del: (key) => del(key, store),
    values: () => values(store),
  };
}

const defaultStore = createDocumentStore(
  typeof indexedDB === 'undefined' ? memoryBackend() : indexedDbBackend(),
);

export const saveJob = defaultStore.saveJob;
export const listJobs = defaultStore.listJobs;
export const loadJob = defaultStore.loadJob;
/** The job's stored document, or null when this browser never had it (sent by URL, elsewhere, cleared). */
export const loadDocument = defaultStore.loadDocument;
export const updateJob = defaultStore.updateJob;
/**
 * Removes the job from the list, and its stored document and kept result with it (one record). The job
 * stays on the service.
 */
export const removeJob = defaultStore.removeJob;
