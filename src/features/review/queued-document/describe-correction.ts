/**
 * Corrections in words, as the stale-version alert and the history show them: which field (or which
 * list edit), by its title (the review's field-titles; outside one, the path made human), and a
 * value as the operator would read it.
 */
import { titleFromPath, type TitleOf } from '@extraction-review/review-domain/fields/review-tree';
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

export function correctionLabel(path: string, titleOf: TitleOf = titleFromPath): string {
  return LIST_EDITS[path] ?? titleOf(path);
}

/**
 * `undefined`: no correction (the extracted value); `{ "$reverted": true }` likewise. The fields a
 * list edit names (items removed, values checked, regions picked) by their titles.
 */
export function describeValue(value: unknown, path = '', titleOf: TitleOf = titleFromPath): string {
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
          `${titleOf(field)} (p. ${Array.isArray(at) ? at.map((l) => (l.page ?? 0) + 1).join(', ') : '?'})`,
      )
      .join(', ');
  }
  if (value === '') return '(empty)';
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    // Items removed, values checked: paths, named as the operator reads them.
    if (list) return value.map((v) => (typeof v === 'string' ? titleOf(v) : describeValue(v))).join(', ');
    return value.map((v) => describeValue(v)).join(', ');
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    // Items added (by list), values confirmed though not on the page: keyed by paths.
    const key = (k: string) => (list ? titleOf(k) : k);
    return entries.length === 0
      ? '(none)'
      : entries.map(([k, v]) => `${key(k)}: ${describeValue(v)}`).join(', ');
  }
  return String(value);
}

function isReverted(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).$reverted === true;
}
