import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { reviewKeys } from '../../../api/keys';
import {
  confirmDocument,
  getReviewDocument,
  postponeDocument,
  rejectDocument,
  releaseDocument,
  takeNext,
} from '../../../api/review/endpoints';
import type {
  DocumentResponse,
  ReviewDocument,
  SessionResponse,
} from '@extraction-review/contract/review/schemas';
import { deleteDraft } from '../../../lib/draft-store';
import { parseQueueFilters, queueHref, reviewHref, toNextQuery } from '../../../lib/queue-filters';
import { deleteDraftBase } from './draft-base-store';
import { moveOnAhead, moveOnStore } from './move-on';
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
  | { kind: 'postpone'; reason: string | undefined; until?: string | undefined }
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

/** The same after a rejection or a postponement, which move on to the next document too. */
const NOTHING_LEFT_AFTER: Record<'confirm' | 'reject' | 'postpone', string> = {
  confirm: NOTHING_LEFT,
  reject: 'Rejected. Nothing left to review: no document is waiting.',
  postpone: 'Postponed. Nothing left to review: no document is waiting.',
};

/** Whether a decision moves on to the next document of the queue's filters. */
const movesOn = (request: DecisionRequest): boolean =>
  request.kind === 'reject' || request.kind === 'postpone' || (request.kind === 'confirm' && request.next);

interface Options {
  documentId: string;
  draftKey: string;
  /** Saves every correction; resolves with the version to decide on. */
  flush: () => Promise<number>;
  /** A refusal the corrections' sync resolves (stale version, lost hold). */
  onRefused: (error: unknown) => void;
  /** Confirmed, but the next document could not be taken. */
  onNextFailed: (error: unknown) => void;
  /** The next document made ready meanwhile (use-next-ahead.ts), or null. */
  ahead?: string | null | undefined;
}

/** What a move on's `back` finds in the history entry it pushed. */
interface MovedOnState {
  movedOnFrom: string;
}

/**
 * The next document shown ahead can be drawn without asking the server anything: its record (with
 * its result) and its file (or the answer that none is kept) are in the cache.
 */
export function isReadyAhead(queryClient: QueryClient, documentId: string): boolean {
  const record = queryClient.getQueryData<DocumentResponse>(reviewKeys.document(documentId));
  return (
    record !== undefined &&
    record.document.result !== null &&
    queryClient.getQueryData(reviewKeys.file(documentId)) !== undefined
  );
}

/**
 * The review's decisions: each saves the corrections first and decides on the version that gives.
 * Once decided the local draft goes and the queue's lists are read again; "Confirm and next", Reject
 * and Postpone take the next waiting document of the queue's filters (kept in the review's URL) and
 * open it, or go back to the queue with those filters when none is left. Release goes back to it too.
 *
 * When the next document is ready ahead (`ahead`, its record and file in the cache), those three open
 * it as soon as the corrections are saved, and decide and take meanwhile (move-on.ts): the operator
 * sees it at once, editable once the take gives it; a refused decision comes back here.
 */
export function useDecisions({ documentId, draftKey, flush, onRefused, onNextFailed, ahead }: Options) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const filters = parseQueueFilters(useSearch());
  const show = (document: ReviewDocument) =>
    queryClient.setQueryData(reviewKeys.document(document.id), { document });
  const me = () => queryClient.getQueryData<SessionResponse | null>(reviewKeys.session())?.operator.id;
  const settle = (document: ReviewDocument) => {
    deleteDraft(draftKey).catch(() => undefined);
    deleteDraftBase(draftKey).catch(() => undefined);
    void queryClient.invalidateQueries({ queryKey: reviewKeys.queues() });
    void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(documentId) });
    show(document);
  };

  return useMutation({
    mutationFn: async (request: DecisionRequest) => {
      // A new decision: what the last one shown ahead left here is over.
      const { failed, notice } = moveOnStore.get();
      if (failed?.documentId === documentId || notice?.documentId === documentId)
        moveOnStore.set({ failed: null, notice: null });
      const version = await flush().catch((error: unknown) => {
        throw new NotSavedError(error);
      });
      if (request.kind !== 'release' && movesOn(request) && ahead && isReadyAhead(queryClient, ahead)) {
        // Its record counts as just read: the take's answer, a moment later, is the fresh one, and the
        // review shown meanwhile asks nothing of the server while it decides and takes.
        queryClient.setQueryData(reviewKeys.document(ahead), (record: DocumentResponse | undefined) =>
          record ? { ...record } : record,
        );
        void moveOnAhead({
          from: documentId,
          to: ahead,
          decide: () => decide(documentId, version, request),
          decided: settle,
          take: async () => (await takeNext(toNextQuery(filters, me()))) ?? null,
          taken: async (next) => {
            // A read of it started before the take answered would bring back the untaken one.
            await queryClient.cancelQueries({ queryKey: reviewKeys.document(next.id), exact: true });
            show(next);
          },
          open: (id, { replace }) => {
            navigate(reviewHref(id, filters), {
              replace,
              ...(replace ? {} : { state: { movedOnFrom: documentId } satisfies MovedOnState }),
            });
            // Open from now on, though its page mounts a moment later.
            moveOnStore.show(id);
          },
          back: (id) => {
            // The entry pushed for the next document goes, so that Back leads where it did before.
            if ((window.history.state as Partial<MovedOnState> | null)?.movedOnFrom === id)
              window.history.back();
            else navigate(reviewHref(id, filters), { replace: true });
            moveOnStore.show(id);
          },
          queueEmpty: () =>
            navigate(queueHref(filters), {
              replace: true,
              state: { notice: NOTHING_LEFT_AFTER[request.kind] },
            }),
          showing: moveOnStore.showing,
          reread: async (id) => (await getReviewDocument(id)).document,
          nameOf: (id) =>
            queryClient.getQueryData<DocumentResponse>(reviewKeys.document(id))?.document.fileName ??
            'The document shown',
        });
        return { movedAhead: true as const };
      }
      const { document } = await decide(documentId, version, request);
      if (!movesOn(request)) return { document };
      try {
        return { document, next: (await takeNext(toNextQuery(filters, me()))) ?? null };
      } catch (error) {
        return { document, nextError: error };
      }
    },
    onSuccess: (answer, request) => {
      // Shown ahead: the move on does the rest.
      if (answer.movedAhead) return;
      const { document, next, nextError } = answer;
      settle(document);
      if (request.kind === 'release') navigate(queueHref(filters));
      else if (next) {
        show(next);
        navigate(reviewHref(next.id, filters));
      } else if (next === null)
        navigate(queueHref(filters), { state: { notice: NOTHING_LEFT_AFTER[request.kind] } });
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
      return postponeDocument(documentId, version, request.reason, { until: request.until });
    case 'release':
      return releaseDocument(documentId);
  }
}
