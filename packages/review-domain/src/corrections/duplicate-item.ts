/**
 * Duplicating a row of a table: the copy is an added item (after the extracted ones and the items
 * already added) whose values are the source row's values as the operator sees them, corrections
 * included. It is expressed with the corrections that already exist (an added item and its typed
 * values), so drafts, the server's stored corrections and the exports need nothing new.
 *
 * What is not copied, and why: the source's polygons (the copy is a new line the operator has still
 * to find on the page, and two rows pointing at one region would say the page holds it twice); its
 * "checked" marks (nobody has checked the copy); lists nested inside the row (an added item's nested
 * list is shown only when the schema says what its items hold, so a copied one could be invisible
 * while still counted as a change).
 */
import type { CorrectionValue } from '../fields/draft';
import type { ReviewNode } from '../fields/review-tree';

/** The source row's values, keyed by their path inside the row (`.description`, `.address.city`). */
export type ItemCopy = Readonly<Record<string, CorrectionValue>>;

/** What a copy of `item` (a list item's node) holds: every non-empty simple value, by relative path. */
export function copyOfItem(item: ReviewNode): ItemCopy {
  const values: Record<string, CorrectionValue> = {};
  const walk = (node: ReviewNode) => {
    if (node.kind === 'simple') {
      // An added item's values start empty: an empty one needs no correction.
      if (node.value != null && node.value !== '') values[node.path.slice(item.path.length)] = node.value;
    } else if (node.kind === 'object') node.children.forEach(walk);
  };
  walk(item);
  return values;
}

/** The path of the item a duplicate becomes: the list's next one. */
export function nextItemPath(list: string, extractedCount: number, added: number): string {
  return `${list}[${extractedCount + added}]`;
}
