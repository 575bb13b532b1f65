import { queryOptions } from '@tanstack/react-query';
import { documentStoreKeys, loadDocument } from '../lib/document-store';

/**
 * A job's document as this browser keeps it (null when it does not), read once per page: by the job's
 * route, and before the app renders on the job's address (review-data-early.ts).
 */
export function storedDocumentQueryOptions(jobId: string) {
  return queryOptions({
    queryKey: documentStoreKeys.detail(jobId),
    queryFn: () => loadDocument(jobId),
    staleTime: Infinity,
  });
}
