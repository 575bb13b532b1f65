/**
 * The operator's corrections to one result, keyed by field path: UI state of its own (STYLE.md), apart
 * from the server's data, which stays untouched in React Query.
 *
 * Removing an extracted list item marks it (`removed`), so the other items keep their paths, polygons
 * and corrections, and it can be restored. Items the operator added come after the extracted ones;
 * removing one of them deletes it, and the added items after it move up one place, corrections included.
 */
import type { FieldLocation } from '@extraction-review/contract/v2/schemas';
import { nextItemPath, type ItemCopy } from '../corrections/duplicate-item';
import type { CorrectionValue, Draft } from './draft';
import { isWithin, type Edits } from './review-tree';

export interface CorrectionsState extends Edits {
  /** The stored draft has been read (edits made before that are merged into it). */
  loaded: boolean;
}

export type CorrectionsAction =
  | {
      type: 'loaded';
      draft: Pick<Draft, 'values' | 'removed' | 'added' | 'reviewed' | 'locations' | 'notOnPage'> | null;
    }
  /** A value typed, or picked on the page (`location`: the region it was read from). */
  | {
      type: 'set';
      path: string;
      value: CorrectionValue;
      original: CorrectionValue;
      location?: FieldLocation[];
    }
  | { type: 'revert'; path: string }
  | { type: 'revertAll' }
  /** `notOnPage`: confirmed although the value was not found on the page (the value confirmed). */
  | { type: 'confirm'; path: string; notOnPage?: { value: CorrectionValue } }
  | { type: 'addItem'; list: string }
  /** A copy of a row added at the end of its list: `values` by path inside the row (duplicate-item.ts). */
  | { type: 'duplicateItem'; list: string; extractedCount: number; values: ItemCopy }
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
        locations: orNone({ ...stored.locations, ...state.locations }),
        notOnPage: orNone({ ...stored.notOnPage, ...state.notOnPage }),
      };
    }
    case 'set': {
      const { [action.path]: _previous, ...others } = state.values;
      // Typing a value back to what was extracted is not a correction.
      const values = sameValue(action.value, action.original)
        ? others
        : { ...others, [action.path]: action.value };
      // A value confirmed though not on the page is another value now.
      const notOnPage = without(state.notOnPage, action.path);
      const locations = action.location
        ? { ...state.locations, [action.path]: action.location }
        : state.locations;
      return { ...state, values, locations, notOnPage };
    }
    case 'revert': {
      const { path } = action;
      const has = (r: Readonly<Record<string, unknown>> | undefined) =>
        r !== undefined && Object.hasOwn(r, path);
      if (!has(state.values) && !has(state.locations) && !has(state.notOnPage)) return state;
      const { [path]: _reverted, ...values } = state.values;
      return {
        ...state,
        values,
        locations: without(state.locations, path),
        notOnPage: without(state.notOnPage, path),
      };
    }
    case 'revertAll':
      return { ...state, values: {}, removed: [], added: {}, locations: {}, notOnPage: {} };
    case 'confirm': {
      const reviewed = state.reviewed.includes(action.path)
        ? state.reviewed
        : [...state.reviewed, action.path];
      const notOnPage = action.notOnPage
        ? { ...state.notOnPage, [action.path]: action.notOnPage.value }
        : state.notOnPage;
      return reviewed === state.reviewed && notOnPage === state.notOnPage
        ? state
        : { ...state, reviewed, notOnPage };
    }
    case 'addItem':
      return { ...state, added: { ...state.added, [action.list]: (state.added[action.list] ?? 0) + 1 } };
    case 'duplicateItem': {
      const count = state.added[action.list] ?? 0;
      const at = nextItemPath(action.list, action.extractedCount, count);
      const values = { ...state.values };
      for (const [suffix, value] of Object.entries(action.values)) values[`${at}${suffix}`] = value;
      return { ...state, values, added: { ...state.added, [action.list]: count + 1 } };
    }
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
  const record = <T>(r: Readonly<Record<string, T>> | undefined): Record<string, T> =>
    Object.fromEntries(
      Object.entries(r ?? {}).flatMap(([p, v]) => {
        const to = move(p);
        return to == null ? [] : [[to, v] as const];
      }),
    );
  return {
    ...state,
    values,
    added,
    removed: paths(state.removed),
    reviewed: paths(state.reviewed),
    locations: orNone(record(state.locations)),
    notOnPage: orNone(record(state.notOnPage)),
  };
}

/** An empty record as none: edits made before picking existed look as they did. */
export function orNone<T>(record: Record<string, T>): Record<string, T> | undefined {
  return Object.keys(record).length === 0 ? undefined : record;
}

function without<T>(
  record: Readonly<Record<string, T>> | undefined,
  path: string,
): Readonly<Record<string, T>> | undefined {
  if (record === undefined || !Object.hasOwn(record, path)) return record;
  const { [path]: _gone, ...rest } = record;
  return rest;
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
