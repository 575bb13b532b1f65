import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ragDocumentKeys } from '../../../api/keys';
import { addRagDocument, type AddRagDocumentInput } from '../../../api/v2/rag';

/**
 * "Send to RAG": the corrected fields become a validated document of the model. The mutation owns its
 * cache consequences: the new document is seeded, the model's list refetched when next needed.
 */
export function useSendToRag(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddRagDocumentInput) => addRagDocument(modelId, input),
    onSuccess: async (response) => {
      queryClient.setQueryData(ragDocumentKeys.detail(modelId, response.document.id), response);
      await queryClient.invalidateQueries({ queryKey: ragDocumentKeys.list(modelId) });
    },
  });
}
