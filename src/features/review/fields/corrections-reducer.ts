/**
 * The operator's corrections to one result, keyed by field path: UI state of its own (STYLE.md), apart
 * from the server's data, which stays untouched in React Query.
 *
 * Removing an extracted list item marks it (`removed`), so the other items keep their paths, polygons
 * and corrections, and it can be restored. Items the operator added come after the extracted ones;
 * removing one of them deletes it, and the added items after it move up one place, corrections included.
 */
import type { CorrectionValue, Draft } from '../../../lib/draft-store';
import { isWithin, type Edits } from './review-tree';

export interface CorrectionsState extends Edits {
  /** The stored draft has been read (edits made before that are merged into it). */
  loaded: boolean;
}

export type CorrectionsAction =
  | { type: 'loaded'; draft: Pick<Draft, 'values' | 'removed' | 'added' | 'reviewed'> | null }
  | { type: 'set'; path: string; value: CorrectionValue; original: CorrectionValue }
  | { type: 'revert'; path: string }
  | { type: 'revertAll' }
  | { type: 'confirm'; path: string }
  | { type: 'addItem'; list: string }
  | { type: 'removeItem'; list: string; index: number; extractedCount: number }
  | { type: 'restoreItem'; path: string };

export const initialCorrections: CorrectionsState = {
  loaded: false,
  values: {},
  removed: [],
  added: {},
  reviewed: [],
};

export function correctionsReducer(state: CorrectionsState, action: CorrectionsAction): CorrectionsState {
  switch (action.type) {
    case 'loaded': {
      if (state.loaded) return state;
      const stored = action.draft ?? { values: {}, removed: [], added: {}, reviewed: [] };
      // Edits made before the stored draft arrived win over it.
      return {
        loaded: true,
        values: { ...stored.values, ...state.values },
        removed: union(stored.removed, state.removed),
        added: { ...stored.added, ...state.added },
        reviewed: union(stored.reviewed, state.reviewed),
      };
    }
    case 'set': {
      const { [action.path]: _previous, ...others } = state.values;
      // Typing a value back to what was extracted is not a correction.
      const values = sameValue(action.value, action.original)
        ? others
        : { ...others, [action.path]: action.value };
      return { ...state, values };
    }
    case 'revert': {
      if (!Object.hasOwn(state.values, action.path)) return state;
      const { [action.path]: _reverted, ...values } = state.values;
      return { ...state, values };
    }
    case 'revertAll':
      return { ...state, values: {}, removed: [], added: {} };
    case 'confirm':
      return state.reviewed.includes(action.path)
        ? state
        : { ...state, reviewed: [...state.reviewed, action.path] };
    case 'addItem':
      return { ...state, added: { ...state.added, [action.list]: (state.added[action.list] ?? 0) + 1 } };
    case 'removeItem':
      return removeItem(state, action.list, action.index, action.extractedCount);
    case 'restoreItem':
      return { ...state, removed: state.removed.filter((p) => p !== action.path) };
  }
}

function removeItem(
  state: CorrectionsState,
  list: string,
  index: number,
  extracted: number,
): CorrectionsState {
  const path = `${list}[${index}]`;
  if (index < extracted)
    return state.removed.includes(path) ? state : { ...state, removed: [...state.removed, path] };
  const count = state.added[list] ?? 0;
  if (index >= extracted + count) return state;
  // An added item: gone for good; the added items after it move up.
  const move = (p: string): string | null => {
    if (isWithin(p, path)) return null;
    for (let i = index + 1; i < extracted + count; i++) {
      const from = `${list}[${i}]`;
      if (isWithin(p, from)) return `${list}[${i - 1}]${p.slice(from.length)}`;
    }
    return p;
  };
  const values: Record<string, CorrectionValue> = {};
  for (const [p, v] of Object.entries(state.values)) {
    const to = move(p);
    if (to != null) values[to] = v;
  }
  const added: Record<string, number> = {};
  for (const [p, n] of Object.entries(state.added)) {
    const to = p === list ? p : move(p);
    if (to != null) added[to] = p === list ? n - 1 : n;
  }
  const paths = (ps: readonly string[]) => ps.flatMap((p) => (move(p) == null ? [] : [move(p) as string]));
  return { ...state, values, added, removed: paths(state.removed), reviewed: paths(state.reviewed) };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/**
 * Compared as text, as the editor shows it: `12.5` typed over 12.5 is no correction, while `12.` on the
 * way to `12.5` (over 12) is kept as typed rather than snapped back to `12` under the operator's cursor.
 */
function sameValue(a: CorrectionValue, b: CorrectionValue): boolean {
  if (a === b) return true;
  if (a == null || b == null) return false;
  return String(a) === String(b);
}

/** How much the operator changed: for the count beside the export buttons. */
export function countChanges(state: Edits): {
  values: number;
  removed: number;
  added: number;
  total: number;
} {
  const values = Object.keys(state.values).length;
  const removed = state.removed.length;
  const added = Object.values(state.added).reduce((sum, n) => sum + n, 0);
  return { values, removed, added, total: values + removed + added };
}
