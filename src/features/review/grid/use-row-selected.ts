import { useCallback, useContext, useSyncExternalStore } from 'react';
import { HighlightContext } from '../viewer/highlight-store';
import { rowOf } from '../viewer/field-regions';

/**
 * Whether the selected value lies in this row; re-renders the row only when that changes (a hover,
 * or a move within the row, re-renders no row).
 */
export function useRowSelected(itemPath: string): boolean {
  const store = useContext(HighlightContext);
  const subscribe = useCallback(
    (listener: () => void) => store?.subscribeAll(listener) ?? (() => {}),
    [store],
  );
  return useSyncExternalStore(subscribe, () => rowOf(store?.current().selected ?? null) === itemPath);
}

/** The row of the selected value, or null (for the grid to show that row's region on the page). */
export function useSelectedRow(): string | null {
  const store = useContext(HighlightContext);
  const subscribe = useCallback(
    (listener: () => void) => store?.subscribeAll(listener) ?? (() => {}),
    [store],
  );
  return useSyncExternalStore(subscribe, () => rowOf(store?.current().selected ?? null));
}
