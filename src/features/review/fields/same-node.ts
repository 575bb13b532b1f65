import type { SimpleNode } from '@extraction-review/review-domain/fields/review-tree';

/**
 * Whether a value's row would draw the same: the tree is rebuilt on every keystroke, so rows compare
 * what they show rather than node identity, and only the edited row re-renders. Locations and options
 * come from the result and the schema, so they keep their identity across rebuilds.
 */
export function sameSimpleNode(a: SimpleNode, b: SimpleNode): boolean {
  return (
    a === b ||
    (a.path === b.path &&
      a.value === b.value &&
      a.original === b.original &&
      a.edited === b.edited &&
      a.reviewed === b.reviewed &&
      a.confirmedNotOnPage === b.confirmedNotOnPage &&
      a.added === b.added &&
      a.confidence === b.confidence &&
      a.type === b.type &&
      a.options === b.options &&
      a.locations === b.locations)
  );
}
