import { useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useRef } from 'react';
import { draftStoreKeys, loadDraft, saveDraft, type CorrectionValue } from '../../../lib/draft-store';
import type { FieldLeaf } from './flatten-fields';

type Corrections = Record<string, CorrectionValue>;

type Action =
  | { type: 'loaded'; values: Corrections }
  | { type: 'set'; path: string; value: CorrectionValue; original: CorrectionValue };

interface State {
  loaded: boolean;
  values: Corrections;
}

export function correctionsReducer(state: State, action: Action): State {
  switch (action.type) {
    case 'loaded':
      // The stored draft loads once; edits made before it arrived win over it.
      return state.loaded ? state : { loaded: true, values: { ...action.values, ...state.values } };
    case 'set': {
      // Typing a value back to what was extracted is not a correction.
      const { [action.path]: _previous, ...others } = state.values;
      const values = sameValue(action.value, action.original)
        ? others
        : { ...others, [action.path]: action.value };
      return { ...state, values };
    }
  }
}

function sameValue(a: CorrectionValue, b: CorrectionValue): boolean {
  return a === b || (a != null && b != null && String(a) === String(b));
}

const SAVE_DELAY_MS = 250;

/**
 * The operator's corrections for one job, keyed by field path, saved as a draft in IndexedDB as they
 * type so that a reload loses nothing.
 */
export function useCorrections(jobId: string, leaves: FieldLeaf[]) {
  const stored = useQuery({
    queryKey: draftStoreKeys.detail(jobId),
    queryFn: () => loadDraft(jobId),
    staleTime: Infinity,
    gcTime: 0,
  });
  const [state, dispatch] = useReducer(correctionsReducer, { loaded: false, values: {} });
  const dirty = useRef(false);

  useEffect(() => {
    if (stored.isSuccess) dispatch({ type: 'loaded', values: stored.data?.values ?? {} });
  }, [stored.isSuccess, stored.data]);

  useEffect(() => {
    if (!state.loaded || !dirty.current) return;
    const timer = setTimeout(() => {
      void saveDraft(jobId, { values: state.values, updatedAt: new Date().toISOString() });
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [jobId, state]);

  function setCorrection(path: string, value: CorrectionValue) {
    const original = leaves.find((l) => l.path === path)?.value ?? null;
    dirty.current = true;
    dispatch({ type: 'set', path, value, original });
  }

  return { corrections: state.values, ready: state.loaded, setCorrection };
}
