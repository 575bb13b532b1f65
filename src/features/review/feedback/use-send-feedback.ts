import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendFeedback } from '../../../api/v1/endpoints';
import { feedbackKeys } from '../../../api/keys';
import { feedbackQueryOptions } from '../../../api/v1/queries';
import type { V1Feedback } from '@extraction-review/contract/v1/schemas';
import type { FeedbackMethod } from '@extraction-review/review-domain/feedback/to-v1-feedback';

export interface SendFeedbackInput {
  method: FeedbackMethod;
  feedback: V1Feedback;
}

/**
 * The stored feedback of a v1 document and the mutation that sends more. The stored feedback is read
 * once (our reference service's GET extension) so that a reload still knows what was sent; the hosted
 * service has no such route, and any failure to read it only means "not known": sending stays possible.
 * The mutation writes its answer over it, which is the server's word on what is now stored.
 */
export function useSendFeedback(documentId: string) {
  const queryClient = useQueryClient();
  const stored = useQuery({ ...feedbackQueryOptions(documentId), staleTime: Infinity });
  const send = useMutation({
    mutationKey: [...feedbackKeys.detail(documentId), 'send'],
    mutationFn: ({ method, feedback }: SendFeedbackInput) => sendFeedback(documentId, feedback, { method }),
    onSuccess: (response) => queryClient.setQueryData(feedbackKeys.detail(documentId), response),
  });
  return { stored, send };
}
