import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { createDraftWriter, draftStoreKeys, loadDraft } from '../../../lib/draft-store';
import {
  correctionsReducer,
  initialCorrections,
  type CorrectionsAction,
  type CorrectionsState,
} from '@extraction-review/review-domain/fields/corrections-reducer';
import type { Edits } from '@extraction-review/review-domain/fields/review-tree';

export interface CorrectionsOptions {
  /** The IndexedDB draft's key; the job id when not given. */
  draftKey?: string | undefined;
  /**
   * Where the corrections start, instead of the stored draft (which is then not read): the caller has
   * merged it with what it knows (the team queue's server corrections). Read once, at mount (but see
   * `readOnly`).
   */
  initial?: Edits | undefined;
  /** Told the corrections once loaded, then at every change (the team queue saves them to its server). */
  onChange?: ((edits: Edits) => void) | undefined;
  /**
   * The operator's actions change nothing (a document someone else holds, or decided); with `initial`,
   * the corrections shown follow it as it changes (someone else's work, as the server has it).
   */
  readOnly?: boolean | undefined;
}

function startFrom(initial: Edits | undefined): CorrectionsState {
  return initial === undefined
    ? initialCorrections
    : {
        loaded: true,
        values: { ...initial.values },
        removed: [...initial.removed],
        added: { ...initial.added },
        reviewed: [...initial.reviewed],
        locations: { ...initial.locations },
        notOnPage: { ...initial.notOnPage },
      };
}

/**
 * The operator's corrections for one job, saved as a draft in IndexedDB as they type, so that a reload
 * loses nothing. The draft keeps a copy of `result`: a model that deletes its results once fetched
 * answers 404 after a reload.
 */
export function useCorrections(
  jobId: string,
  result: unknown,
  { draftKey, initial, onChange, readOnly = false }: CorrectionsOptions = {},
) {
  const key = draftKey ?? jobId;
  const seeded = initial !== undefined;
  const stored = useQuery({
    queryKey: draftStoreKeys.detail(key),
    queryFn: () => loadDraft(key),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    enabled: !seeded,
  });
  const [state, dispatch] = useReducer(correctionsReducer, initial, startFrom);
  const [saveError, setSaveError] = useState<unknown>(null);
  const dirty = useRef(false);
  const locked = useRef(readOnly);
  const listener = useRef(onChange);
  useEffect(() => {
    locked.current = readOnly;
    listener.current = onChange;
  });

  useEffect(() => {
    if (stored.isSuccess) dispatch({ type: 'loaded', draft: stored.data });
    // Storage unavailable (private mode, quota): the review still works, the warning says so.
    if (stored.isError) dispatch({ type: 'loaded', draft: null });
  }, [stored.isSuccess, stored.isError, stored.data]);

  // One write at a time, always of the latest state: a reload right after a keystroke finds it stored.
  const writer = useMemo(() => createDraftWriter(key, setSaveError), [key]);

  useEffect(() => {
    if (!state.loaded || !dirty.current) return;
    writer.write({
      values: { ...state.values },
      removed: [...state.removed],
      added: { ...state.added },
      reviewed: [...state.reviewed],
      locations: { ...state.locations },
      notOnPage: { ...state.notOnPage },
      result,
      updatedAt: new Date().toISOString(),
    });
  }, [state, result, writer]);

  const shown = useMemo(
    () => (readOnly && initial !== undefined ? startFrom(initial) : state),
    [readOnly, initial, state],
  );

  useEffect(() => {
    if (shown.loaded) listener.current?.(shown);
  }, [shown]);

  const act = useCallback((action: CorrectionsAction) => {
    if (locked.current) return;
    // Only the operator's own actions write a draft (not loading one).
    dirty.current = true;
    dispatch(action);
  }, []);

  return {
    corrections: shown,
    ready: shown.loaded,
    storageError: saveError ?? (stored.isError ? stored.error : null),
    dispatch: act,
  };
}
