/** The values pane's share of the review's width, in percent, as the operator last left it. */
export const VALUES_WIDTH = { min: 30, max: 70, default: 44, step: 2 } as const;

const KEY = 'extraction-review:values-width';

/** A share within the bounds, whole percent (the separator's aria-valuenow). */
export function clampWidth(percent: number): number {
  if (!Number.isFinite(percent)) return VALUES_WIDTH.default;
  return Math.round(Math.min(VALUES_WIDTH.max, Math.max(VALUES_WIDTH.min, percent)));
}

/** The remembered share, or the default (nothing kept, storage refused, a value not a number). */
export function readValuesWidth(): number {
  try {
    const kept = window.localStorage.getItem(KEY);
    return kept === null ? VALUES_WIDTH.default : clampWidth(Number(kept));
  } catch {
    return VALUES_WIDTH.default;
  }
}

/** Kept for the next review; a browser refusing storage only forgets it. */
export function writeValuesWidth(percent: number): void {
  try {
    window.localStorage.setItem(KEY, String(clampWidth(percent)));
  } catch {
    // Private mode or a full quota: the split still works for this page.
  }
}
