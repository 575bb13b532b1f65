/**
 * Corrections in words, as the stale-version alert and the history show them: which field (or which
 * list edit), and a value as the operator would read it.
 */
import {
  ADDED,
  LOCATIONS,
  NOT_ON_PAGE,
  REMOVED,
  REVIEWED,
} from '@extraction-review/review-domain/queue/corrections-sync';

const LIST_EDITS: Record<string, string> = {
  [REMOVED]: 'Items removed',
  [ADDED]: 'Items added',
  [REVIEWED]: 'Values checked',
  [LOCATIONS]: 'Picked on the page',
  [NOT_ON_PAGE]: 'Confirmed though not on the page',
};

export function correctionLabel(path: string): string {
  return LIST_EDITS[path] ?? path;
}

/** `undefined`: no correction (the extracted value); `{ "$reverted": true }` likewise. */
export function describeValue(value: unknown, path = ''): string {
  const list = Object.hasOwn(LIST_EDITS, path);
  if (value === undefined || isReverted(value)) return list ? '(none)' : '(as extracted)';
  if (value === null) return '(no value)';
  if (path === LOCATIONS && typeof value === 'object' && !Array.isArray(value)) {
    // The region of each value, by its page: polygons read as numbers would say nothing.
    const entries = Object.entries(value as Record<string, { page?: number }[]>);
    if (entries.length === 0) return '(none)';
    return entries
      .map(
        ([field, at]) =>
          `${field} (p. ${Array.isArray(at) ? at.map((l) => (l.page ?? 0) + 1).join(', ') : '?'})`,
      )
      .join(', ');
  }
  if (value === '') return '(empty)';
  if (Array.isArray(value))
    return value.length === 0 ? '(none)' : value.map((v) => describeValue(v)).join(', ');
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? '(none)' : entries.map(([k, v]) => `${k}: ${describeValue(v)}`).join(', ');
  }
  return String(value);
}

function isReverted(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).$reverted === true;
}
