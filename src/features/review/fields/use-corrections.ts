import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { createDraftWriter, draftStoreKeys, loadDraft } from '../../../lib/draft-store';
import { correctionsReducer, initialCorrections, type CorrectionsAction } from './corrections-reducer';

/**
 * The operator's corrections for one job, saved as a draft in IndexedDB as they type, so that a reload
 * loses nothing. The draft keeps a copy of `result`: a model that deletes its results once fetched
 * answers 404 after a reload.
 */
export function useCorrections(jobId: string, result: unknown) {
  const stored = useQuery({
    queryKey: draftStoreKeys.detail(jobId),
    queryFn: () => loadDraft(jobId),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const [state, dispatch] = useReducer(correctionsReducer, initialCorrections);
  const [saveError, setSaveError] = useState<unknown>(null);
  const dirty = useRef(false);

  useEffect(() => {
    if (stored.isSuccess) dispatch({ type: 'loaded', draft: stored.data });
    // Storage unavailable (private mode, quota): the review still works, the warning says so.
    if (stored.isError) dispatch({ type: 'loaded', draft: null });
  }, [stored.isSuccess, stored.isError, stored.data]);

  // One write at a time, always of the latest state: a reload right after a keystroke finds it stored.
  const writer = useMemo(() => createDraftWriter(jobId, setSaveError), [jobId]);

  useEffect(() => {
    if (!state.loaded || !dirty.current) return;
    writer.write({
      values: { ...state.values },
      removed: [...state.removed],
      added: { ...state.added },
      reviewed: [...state.reviewed],
      result,
      updatedAt: new Date().toISOString(),
    });
  }, [state, result, writer]);

  const act = useCallback((action: CorrectionsAction) => {
    // Only the operator's own actions write a draft (not loading one).
    dirty.current = true;
    dispatch(action);
  }, []);

  return {
    corrections: state,
    ready: state.loaded,
    storageError: saveError ?? (stored.isError ? stored.error : null),
    dispatch: act,
  };
}
