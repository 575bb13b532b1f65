import { useMutation, useQueryClient } from '@tanstack/react-query';
import { reviewKeys } from '../../../api/keys';
import { reopenDocument, takeDocument } from '../../../api/review/endpoints';
import type { DocumentResponse } from '@extraction-review/contract/review/schemas';
import { isNotHolder, isWrongState } from './review-errors';

/**
 * What can be done to a document the operator does not hold: take it ("Review this document": a
 * waiting or postponed one, or one held before) and, for admins, reopen a decided one. Each answer is
 * the document as it is now; a refusal reads it again, so the page shows who holds it.
 */
export function useDocumentActions(documentId: string, onTaken: () => void) {
  const queryClient = useQueryClient();
  const settle = ({ document }: DocumentResponse) => {
    queryClient.setQueryData(reviewKeys.document(documentId), { document });
    void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
    void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(documentId) });
  };
  const reread = (error: unknown) => {
    if (isNotHolder(error) || isWrongState(error))
      void queryClient.invalidateQueries({ queryKey: reviewKeys.document(documentId) });
  };
  const take = useMutation({
    mutationFn: () => takeDocument(documentId),
    onSuccess: (answer) => {
      settle(answer);
      onTaken();
    },
    onError: reread,
  });
  const reopen = useMutation({
    mutationFn: () => reopenDocument(documentId),
    onSuccess: settle,
    onError: reread,
  });
  return { take, reopen };
}
