import { createContext, useContext } from 'react';
import type { CorrectionValue } from '../../../lib/draft-store';
import type { ListItem, ListNode, SimpleNode } from '@extraction-review/review-domain/fields/review-tree';

/**
 * What a value's control can do, handed down the field tree (objects, lists and tables nest at any
 * depth) through context rather than through every level's props. The object stays the same from one
 * render to the next; which field is hovered or selected comes from a highlight store instead
 * (viewer/highlight-store.ts), so a hover re-renders the two rows concerned, not the whole list.
 */
export interface FieldActions {
  onFieldHover: (path: string | null) => void;
  /** The operator moved to a value (focused it, clicked its row). */
  onFieldSelect: (path: string) => void;
  onFieldChange: (node: SimpleNode, value: CorrectionValue) => void;
  onRevert: (path: string) => void;
  /** Enter in the editor: the value is confirmed and the focus goes back to its row. */
  onConfirm: (path: string) => void;
  /** Escape in the editor: back to the row, nothing marked. */
  onLeaveEditor: (path: string) => void;
  onAddItem: (list: ListNode) => void;
  /** A copy of the item, with its values as the operator sees them, added at the end of the list. */
  onDuplicateItem: (list: ListNode, item: ListItem) => void;
  onRemoveItem: (item: ItemRef) => void;
  onRestoreItem: (path: string) => void;
}

/** A list item, in plain values (rows compare them to skip re-rendering). */
export interface ItemRef {
  list: string;
  index: number;
  path: string;
  /** What the operator reads (`Line item 3`): the remove and restore buttons are named by it. */
  title: string;
  removed: boolean;
  /** How many items the service returned: an index below it is an extracted item. */
  extractedCount: number;
}

export function itemRef(
  list: ListNode,
  item: { index: number; path: string; removed: boolean; node: { title: string } },
): ItemRef {
  return {
    list: list.path,
    index: item.index,
    path: item.path,
    title: item.node.title,
    removed: item.removed,
    extractedCount: list.extractedCount,
  };
}

export function sameItemRef(a: ItemRef | undefined, b: ItemRef | undefined): boolean {
  return (
    a === b ||
    (a != null &&
      b != null &&
      a.path === b.path &&
      a.title === b.title &&
      a.removed === b.removed &&
      a.extractedCount === b.extractedCount)
  );
}

export const FieldActionsContext = createContext<FieldActions | null>(null);

export function useFieldActions(): FieldActions {
  const actions = useContext(FieldActionsContext);
  if (!actions) throw new Error('useFieldActions needs a FieldActionsContext provider');
  return actions;
}

/**
 * The attribute that marks the element of each value the keyboard moves between (a row, a cell), and
 * the value's editor inside it (value-editor.tsx): the first in the document's order is the row.
 */
export const FIELD_ATTRIBUTE = 'data-field-path';
