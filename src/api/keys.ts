/**
 * Query-key factories, one per resource (TanStack `guides/query-keys.md`): hooks, prefetching,
 * `setQueryData` and invalidation all build keys here, never inline. Each factory starts with its API
 * version and resource, so `queryClient.invalidateQueries({ queryKey: jobKeys.all })` reaches every job.
 */
import type { V1ProductRef } from '@extraction-review/contract/v1/schemas';
import type { QueueQuery } from '@extraction-review/contract/review/schemas';
import type { SearchModelsParams } from '@extraction-review/contract/v2/request-schemas';

export const jobKeys = {
  all: ['v2', 'jobs'] as const,
  detail: (jobId: string) => [...jobKeys.all, jobId] as const,
};

export const inferenceKeys = {
  all: ['v2', 'inferences'] as const,
  /**
   * By inference id, so one result shares one entry however it was reached: a `result_url` under
   * `/results/{id}` or `/inferences/{id}` (v2/job/ok_processed_webhooks_ok.json), or a webhook push
   * carrying `inference.id`.
   */
  detail: (inferenceId: string) => [...inferenceKeys.all, inferenceId] as const,
  /** The key of the result a `result_url` points at. */
  forResultUrl: (resultUrl: string) => inferenceKeys.detail(inferenceIdFromResultUrl(resultUrl)),
};

/** The last path segment of a result URL: the inference id. Query and fragment are ignored. */
export function inferenceIdFromResultUrl(resultUrl: string): string {
  const path = resultUrl.split(/[?#]/, 1)[0] ?? '';
  const segments = path.split('/').filter((s) => s !== '');
  const last = segments.at(-1) ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export const modelKeys = {
  all: ['v2', 'models'] as const,
  search: (params: SearchModelsParams = {}) => [...modelKeys.all, 'search', params] as const,
};

/** The reference service's RAG extension (rag.ts): validated documents per model. */
export const ragDocumentKeys = {
  all: ['v2', 'rag-documents'] as const,
  list: (modelId: string) => [...ragDocumentKeys.all, modelId, 'list'] as const,
  detail: (modelId: string, documentId: string) => [...ragDocumentKeys.all, modelId, documentId] as const,
};

/** `mindee/invoices/v4`: one string per v1 API, so keys compare equal for `4` and `"v4"`. */
export function v1ProductKey(product: V1ProductRef): string {
  return `${product.account}/${product.name}/v${String(product.version).replace(/^v/, '')}`;
}

export const v1JobKeys = {
  all: ['v1', 'jobs'] as const,
  detail: (product: V1ProductRef, jobId: string) => [...v1JobKeys.all, v1ProductKey(product), jobId] as const,
};

export const documentKeys = {
  all: ['v1', 'documents'] as const,
  detail: (product: V1ProductRef, documentId: string) =>
    [...documentKeys.all, v1ProductKey(product), documentId] as const,
};

/** The products a v1 service lists (reference extension `GET /v1/extensions/products`). */
export const v1ProductKeys = {
  all: ['v1', 'products'] as const,
};

/** Feedback is addressed by document id alone (`/v1/documents/{id}/feedback`). */
export const feedbackKeys = {
  all: ['v1', 'feedback'] as const,
  detail: (documentId: string) => [...feedbackKeys.all, documentId] as const,
};

/** The review API (the app server's shared queue). */
export const reviewKeys = {
  all: ['review'] as const,
  session: () => [...reviewKeys.all, 'session'] as const,
  signInOptions: () => [...reviewKeys.all, 'sign-in-options'] as const,
  queue: (query: Partial<QueueQuery>) => [...reviewKeys.all, 'queue', query] as const,
  queues: () => [...reviewKeys.all, 'queue'] as const,
  /** Which document "take next" would take now with these filters (under `queues`: read again with them). */
  nextPeek: (query: object) => [...reviewKeys.nextPeeks(), query] as const,
  nextPeeks: () => [...reviewKeys.queues(), 'next'] as const,
  document: (id: string) => [...reviewKeys.all, 'document', id] as const,
  timeline: (id: string) => [...reviewKeys.all, 'timeline', id] as const,
  /** The document an upstream job brought: under the queue's key, so queue events refresh it. */
  jobDocument: (apiVersion: string, jobId: string) =>
    [...reviewKeys.jobDocuments(), apiVersion, jobId] as const,
  jobDocuments: () => [...reviewKeys.queues(), 'job'] as const,
  operators: () => [...reviewKeys.all, 'operators'] as const,
  /** The way back's deliveries (admins), one list per filter. */
  deliveryLists: () => [...reviewKeys.all, 'deliveries'] as const,
  deliveries: (query: object) => [...reviewKeys.deliveryLists(), query] as const,
  delivery: (id: number) => [...reviewKeys.all, 'delivery', id] as const,
  /** A document's deliveries: under its key, so what refreshes the document refreshes them. */
  documentDeliveries: (id: string) => [...reviewKeys.document(id), 'deliveries'] as const,
  /** "Where time goes" (admins), per model and period. */
  analytics: (query: object) => [...reviewKeys.all, 'analytics', query] as const,
  /** What the retention purge removed (admins). */
  purgeRuns: () => [...reviewKeys.all, 'purge-runs'] as const,
  /** Models and their routing and business rules. */
  models: () => [...reviewKeys.all, 'models'] as const,
  modelSettings: (apiVersion: string, model: string) =>
    [...reviewKeys.all, 'models', apiVersion, model] as const,
  /** A queue document's kept file (its bytes, for the viewer). */
  file: (id: string) => [...reviewKeys.all, 'file', id] as const,
  /** Whether a one-time set-up link is still usable. */
  setupLink: (token: string) => [...reviewKeys.all, 'setup-link', token] as const,
};
