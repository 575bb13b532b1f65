/**
 * Warnings an Enter has already shown: the first Enter on a value warned as not on the page arms its
 * warning (the note says a second Enter confirms anyway), the second confirms. Kept outside React so
 * that the value's editor (which gets the key) and its note (which shows the state) agree without
 * the row passing anything down; keyed by path and value, so a value changed since needs two Enters
 * again.
 */
import { useSyncExternalStore } from 'react';
import type { CorrectionValue } from '@extraction-review/review-domain/fields/draft';

const armed = new Map<string, CorrectionValue>();
const listeners = new Set<() => void>();
let version = 0;

function changed() {
  version++;
  for (const listener of listeners) listener();
}

export function armWarning(path: string, value: CorrectionValue): void {
  armed.set(path, value);
  changed();
}

export function disarmWarning(path: string): void {
  if (armed.delete(path)) changed();
}

export function isWarningArmed(path: string, value: CorrectionValue): boolean {
  return armed.has(path) && armed.get(path) === value;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the first Enter was pressed on this value as it is now. */
export function useWarningArmed(path: string, value: CorrectionValue): boolean {
  useSyncExternalStore(subscribe, () => version);
  return isWarningArmed(path, value);
}
