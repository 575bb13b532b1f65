import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enqueueExtraction } from '../../api/v2/endpoints';
import { jobKeys } from '../../api/keys';
import type { JobResponse } from '../../api/v2/schemas';

export interface EnqueueRequest {
  modelId: string;
  file: File;
}

/** Sends a document for extraction and seeds the job's cache entry so that polling starts warm. */
export function useEnqueue(onEnqueued: (job: JobResponse, request: EnqueueRequest) => Promise<void> | void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ modelId, file }: EnqueueRequest) =>
      enqueueExtraction({ model_id: modelId, file, filename: file.name }),
    onSuccess: async (response, request) => {
      queryClient.setQueryData(jobKeys.detail(response.job.id), response);
      await onEnqueued(response, request);
    },
  });
}
