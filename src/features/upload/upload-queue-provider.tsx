import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { jobKeys } from '../../api/keys';
import type { EnqueueExtractionInput } from '../../api/v2/request-schemas';
import { uploadExtraction } from '../../api/v2/upload';
import { documentStoreKeys, saveJob, type NewStoredJob } from '../../lib/document-store';
import { createUploadQueue, isFinished, type UploadItem, type UploadQueue } from './upload-queue';

/** One upload: what is sent, and what this browser keeps of it once it is a job. */
export interface UploadPayload {
  input: EnqueueExtractionInput;
  record: Omit<NewStoredJob, 'jobId' | 'createdAt'>;
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
      send: async ({ input, record }, report, signal) => {
        const response = await uploadExtraction(input, {
          signal,
          onProgress: ({ loaded, total }) => report.progress(loaded, total),
          onRetryWait: ({ waitMs, retry }) => report.rateLimited(waitMs, retry),
        });
        const jobId = response.job.id;
        queryClient.setQueryData(jobKeys.detail(jobId), response);
        try {
          await saveJob({ ...record, jobId, createdAt: new Date().toISOString() });
        } catch (error) {
          // The job exists on the service either way: say what is lost rather than fail the upload.
          console.error('Could not keep the job in this browser', error);
          return {
            jobId,
            warning:
              'The job was queued, but this browser could not keep it (its storage is full or blocked): ' +
              'it will not be in the job list, and its review will show values without the document.',
          };
        } finally {
          await queryClient.invalidateQueries({ queryKey: documentStoreKeys.list() });
        }
        return { jobId };
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
