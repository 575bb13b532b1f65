import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { jobKeys } from '../../api/keys';
import type { EnqueueExtractionInput } from '@extraction-review/contract/v2/request-schemas';
import { documentQueryOptions, v1JobQueryOptions } from '../../api/v1/queries';
import { uploadPrediction } from '../../api/v1/upload';
import {
  uploadExtraction,
  type UploadOptions,
  type UploadProgress,
  type UploadRetryWait,
} from '../../api/v2/upload';
import { documentStoreKeys, saveJob, type NewStoredJob, type StoredV1 } from '../../lib/document-store';
import { v1JobHref, v1Ref } from '../../lib/v1-product';
import { createUploadQueue, isFinished, type UploadItem, type UploadQueue } from './upload-queue';

type StoredRecord = Omit<NewStoredJob, 'jobId' | 'createdAt'>;

/** One upload: what is sent (to v2 or to a v1 product), and what this browser keeps of it once sent. */
export type UploadPayload =
  | { api: 'v2'; input: EnqueueExtractionInput; record: StoredRecord }
  | { api: 'v1'; product: StoredV1; file: File; record: StoredRecord };

/** The page a sent upload is followed on. */
function sentHref(api: 'v1' | 'v2', jobId: string): string {
  return api === 'v1' ? v1JobHref(jobId) : `/jobs/${encodeURIComponent(jobId)}`;
}

const UploadQueueContext = createContext<UploadQueue<UploadPayload> | null>(null);

/**
 * The app's one upload queue, above the routes, so that uploads carry on while the operator looks at
 * the job list. Each upload, once the service has answered, seeds its job's cache entry (polling starts
 * warm, STYLE "Mutations own their cache consequences") and is kept in the document store.
 */
export function UploadQueueProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [queue] = useState(() =>
    createUploadQueue<UploadPayload>({
      send: async (payload, report, signal) => {
        const progress = {
          signal,
          onProgress: ({ loaded, total }: UploadProgress) => report.progress(loaded, total),
          onRetryWait: ({ waitMs, retry }: UploadRetryWait) => report.rateLimited(waitMs, retry),
        };
        const jobId = await sendPayload(payload, progress, queryClient);
        const { record } = payload;
        const href = sentHref(payload.api, jobId);
        try {
          await saveJob({ ...record, jobId, createdAt: new Date().toISOString() });
        } catch (error) {
          // The job exists on the service either way: say what is lost rather than fail the upload.
          console.error('Could not keep the job in this browser', error);
          return {
            jobId,
            href,
            warning:
              'The job was queued, but this browser could not keep it (its storage is full or blocked): ' +
              'it will not be in the job list, and its review will show values without the document.',
          };
        } finally {
          await queryClient.invalidateQueries({ queryKey: documentStoreKeys.list() });
        }
        return { jobId, href };
      },
    }),
  );
  // Leaving the page stops the uploads still going: the browser asks first.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (queue.getSnapshot().some((upload) => !isFinished(upload.phase))) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [queue]);

  return <UploadQueueContext value={queue}>{children}</UploadQueueContext>;
}

/**
 * Sends one upload and seeds the cache entry its page reads first (STYLE "Mutations own their cache
 * consequences"): the v2 job, the v1 queued job, or the v1 document a synchronous predict answered.
 * Resolves with the id the record is kept under: the job's, or for a synchronous v1 predict the
 * document's (there is no job).
 */
async function sendPayload(
  payload: UploadPayload,
  options: UploadOptions,
  queryClient: QueryClient,
): Promise<string> {
  if (payload.api === 'v2') {
    const response = await uploadExtraction(payload.input, options);
    queryClient.setQueryData(jobKeys.detail(response.job.id), response);
    return response.job.id;
  }
  const { file } = payload;
  const product = v1Ref(payload.product);
  const input = { file, filename: file.name };
  if (payload.product.mode === 'sync') {
    const answer = await uploadPrediction(product, 'sync', input, options);
    queryClient.setQueryData(documentQueryOptions(product, answer.document.id).queryKey, answer);
    return answer.document.id;
  }
  const answer = await uploadPrediction(product, 'async', input, options);
  queryClient.setQueryData(v1JobQueryOptions(product, answer.job.id).queryKey, answer);
  return answer.job.id;
}

export function useUploadQueue(): UploadQueue<UploadPayload> {
  const queue = useContext(UploadQueueContext);
  if (!queue) throw new Error('useUploadQueue needs an UploadQueueProvider above it');
  return queue;
}

/** The uploads of this session, re-rendering on every change. */
export function useUploads(): readonly UploadItem<UploadPayload>[] {
  const queue = useUploadQueue();
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot);
}
