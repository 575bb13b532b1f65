import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { reviewKeys } from '../../../api/keys';
import { saveCorrections } from '../../../api/review/endpoints';
import { reviewDocumentQueryOptions } from '../../../api/review/queries';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { saveDraft } from '../../../lib/draft-store';
import type { Edits } from '@extraction-review/review-domain/fields/review-tree';
import { createCorrectionsSaver, type SaverStatus } from './corrections-saver';
import {
  asDraft,
  differences,
  draftFromServer,
  mergeEdits,
  type Difference,
} from '@extraction-review/review-domain/queue/corrections-sync';
import { saveDraftBase } from './draft-base-store';
import { beforeSignOut } from '../../../app/session/before-sign-out';
import { isNotHolder, isStale } from './review-errors';

/** The document changed on the server since the review read it (409 `409-001`), read again. */
export interface Conflict {
  version: number;
  base: Edits;
  theirs: Edits;
  differences: Difference[];
}

interface Options {
  documentId: string;
  /** The signed-in operator: a document read again and held by someone else is lost, not stale. */
  me: string;
  draftKey: string;
  /** The version and corrections the review started from (one answer of the server). */
  start: { version: number; acked: Edits };
  /** The document is not ours any more (403 `403-006`, or found held by another). */
  onLostHold: (error: unknown) => void;
}

/**
 * The review's corrections kept in step with the review store (corrections-saver.ts): each answer
 * goes into the document's cache entry and becomes the local draft's base; a stale version is read
 * again and its differences offered to resolve; a lost hold is handed to the page.
 */
export function useCorrectionsSync({ documentId, me, draftKey, start, onLostHold }: Options) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<SaverStatus>({ kind: 'saved' });
  const [conflict, setConflict] = useState<Conflict | null>(null);
  /** The document could not be read again after a 409. */
  const [rereadError, setRereadError] = useState<unknown>(null);
  const [saver] = useState(() =>
    createCorrectionsSaver(start, {
      save: async (version, corrections) =>
        (await saveCorrections(documentId, { version, corrections })).document,
      onAnswer: (document) => {
        queryClient.setQueryData(reviewKeys.document(documentId), { document });
        // The live queue events skip a version this tab already has: the history is read again here.
        void queryClient.invalidateQueries({ queryKey: reviewKeys.timeline(documentId) });
        saveDraftBase(draftKey, draftFromServer(document.corrections)).catch(() => undefined);
      },
      onStatus: setStatus,
    }),
  );
  const lost = useRef(onLostHold);
  useEffect(() => {
    lost.current = onLostHold;
  });

  // Signing out sends what is left first (the server then releases the document).
  useEffect(
    () =>
      beforeSignOut(async () => {
        // The edit committed by leaving its field (the click on "Sign out") reaches the saver from
        // an effect: let React commit it first.
        await new Promise((resolve) => setTimeout(resolve, 0));
        await saver.flush();
      }),
    [saver],
  );

  useEffect(() => {
    saver.start();
    const online = () => saver.retryNow();
    window.addEventListener('online', online);
    return () => {
      saver.stop();
      window.removeEventListener('online', online);
    };
  }, [saver]);

  const refusal = status.kind === 'blocked' ? status.error : null;
  useEffect(() => {
    if (isNotHolder(refusal)) lost.current(refusal);
    if (!isStale(refusal)) return;
    let live = true;
    queryClient
      .fetchQuery({ ...reviewDocumentQueryOptions(documentId), staleTime: 0 })
      .then(({ document }: { document: ReviewDocument }) => {
        if (!live) return;
        if (document.state !== 'in_review' || document.holder?.id !== me) return lost.current(refusal);
        setRereadError(null);
        const theirs = draftFromServer(document.corrections);
        const base = saver.acked();
        setConflict({
          version: document.version,
          base,
          theirs,
          differences: differences(base, saver.current(), theirs),
        });
      })
      .catch((error: unknown) => {
        if (live) setRereadError(error);
      });
    return () => {
      live = false;
    };
  }, [refusal, queryClient, documentId, me, saver]);

  /** Sends the operator's corrections again on the version read: theirs are replaced where they differ. */
  const keepMine = useCallback(() => {
    if (!conflict) return;
    setConflict(null);
    saver.rebase(conflict.version, conflict.theirs);
  }, [conflict, saver]);

  /** Takes the server's corrections where they differ, keeps the operator's others; returns the result. */
  const takeTheirs = useCallback((): Edits | null => {
    if (!conflict) return null;
    const merged = mergeEdits(conflict.base, saver.current(), conflict.theirs, 'theirs');
    setConflict(null);
    saver.rebase(conflict.version, conflict.theirs);
    saver.update(merged);
    saveDraft(draftKey, asDraft(merged)).catch(() => undefined);
    return merged;
  }, [conflict, saver, draftKey]);

  const flush = useCallback(async () => {
    // A keystroke's correction reaches the saver from an effect: let React commit it first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await saver.flush();
    return saver.version();
  }, [saver]);

  return {
    status,
    conflict,
    rereadError,
    keepMine,
    takeTheirs,
    flush,
    update: saver.update,
    refuse: saver.refuse,
    retry: saver.retry,
  };
}
