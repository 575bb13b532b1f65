import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { reviewKeys } from '../../../api/keys';
import {
  confirmDocument,
  postponeDocument,
  rejectDocument,
  releaseDocument,
  takeNext,
} from '../../../api/review/endpoints';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { deleteDraft } from '../../../lib/draft-store';
import { deleteDraftBase } from './draft-base-store';
import { isNotHolder, isStale, isWrongState } from './review-errors';

export type DecisionRequest =
  | {
      kind: 'confirm';
      next: boolean;
      overrideReason?: string | undefined;
      /** How many unchecked values the operator was told of and confirmed anyway (the history's). */
      uncheckedConfirmed?: number | undefined;
    }
  | { kind: 'reject'; reason: string }
  | { kind: 'postpone'; reason: string | undefined }
  | { kind: 'release' };

/** The corrections could not all be saved first, so nothing was decided; `cause` says why. */
export class NotSavedError extends Error {
  override readonly name = 'NotSavedError';
  constructor(cause: unknown) {
    super('The corrections are not all saved yet', { cause });
  }
}

/** Shown on the queue page after "Confirm and next" found nothing left (history state `notice`). */
export const NOTHING_LEFT = 'Confirmed. Nothing left to review: no document is waiting.';

interface Options {
  documentId: string;
  draftKey: string;
  /** Saves every correction; resolves with the version to decide on. */
  flush: () => Promise<number>;
  /** A refusal the corrections' sync resolves (stale version, lost hold). */
  onRefused: (error: unknown) => void;
  /** Confirmed, but the next document could not be taken. */
  onNextFailed: (error: unknown) => void;
}

/**
 * The review's decisions: each saves the corrections first and decides on the version that gives.
 * Once decided the local draft goes and the queue's lists are read again; "Confirm and next" takes
 * the next waiting document and opens it, or goes back to the queue when none is left.
 */
export function useDecisions({ documentId, draftKey, flush, onRefused, onNextFailed }: Options) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const show = (document: ReviewDocument) =>
    queryClient.setQueryData(reviewKeys.document(document.id), { document });

  return useMutation({
    mutationFn: async (request: DecisionRequest) => {
      const version = await flush().catch((error: unknown) => {
        throw new NotSavedError(error);
      });
      const { document } = await decide(documentId, version, request);
      if (request.kind !== 'confirm' || !request.next) return { document };
      try {
        return { document, next: (await takeNext()) ?? null };
      } catch (error) {
        return { document, nextError: error };
      }
    },
    onSuccess: ({ document, next, nextError }, request) => {
      deleteDraft(draftKey).catch(() => undefined);
      deleteDraftBase(draftKey).catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(documentId) });
      show(document);
      if (request.kind === 'release') navigate('/queue');
      else if (next) {
        show(next);
        navigate(`/review/${encodeURIComponent(next.id)}`);
      } else if (next === null) navigate('/queue', { state: { notice: NOTHING_LEFT } });
      else if (nextError !== undefined) onNextFailed(nextError);
    },
    onError: (error) => {
      if (isStale(error) || isNotHolder(error)) onRefused(error);
      else if (isWrongState(error))
        void queryClient.invalidateQueries({ queryKey: reviewKeys.document(documentId) });
    },
  });
}

function decide(documentId: string, version: number, request: DecisionRequest) {
  switch (request.kind) {
    case 'confirm':
      return request.overrideReason === undefined && request.uncheckedConfirmed === undefined
        ? confirmDocument(documentId, version)
        : confirmDocument(documentId, version, {
            ...(request.overrideReason === undefined ? {} : { overrideReason: request.overrideReason }),
            ...(request.uncheckedConfirmed === undefined
              ? {}
              : { uncheckedConfirmed: request.uncheckedConfirmed }),
          });
    case 'reject':
      return rejectDocument(documentId, version, request.reason);
    case 'postpone':
      return postponeDocument(documentId, version, request.reason);
    case 'release':
      return releaseDocument(documentId);
  }
}
