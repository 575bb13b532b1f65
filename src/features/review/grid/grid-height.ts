import { useCallback, useState } from 'react';

/**
 * How much of the window's height the grid takes, as a fraction: the operator drags its top edge (or
 * uses ↑ ↓ on it) to trade rows for page, and the choice is kept in this browser for the next grid.
 */
export const GRID_HEIGHT = { min: 0.25, max: 0.85, initial: 0.5, step: 0.05 } as const;

const KEY = 'extraction-review:grid-height';

export function clampGridHeight(fraction: number): number {
  if (!Number.isFinite(fraction)) return GRID_HEIGHT.initial;
  return Math.round(Math.min(GRID_HEIGHT.max, Math.max(GRID_HEIGHT.min, fraction)) * 100) / 100;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    // Storage refused (a sandboxed frame): the grid opens at its initial height.
    return undefined;
  }
}

export function useGridHeight(): [number, (fraction: number) => void] {
  const [height, setHeight] = useState(() => {
    const stored = storage()?.getItem(KEY);
    return stored == null ? GRID_HEIGHT.initial : clampGridHeight(Number(stored));
  });
  const set = useCallback((fraction: number) => {
    const next = clampGridHeight(fraction);
    setHeight(next);
    try {
      storage()?.setItem(KEY, String(next));
    } catch {
      // Quota or privacy mode: kept for this grid only.
    }
  }, []);
  return [height, set];
}
