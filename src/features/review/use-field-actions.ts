import { useMemo, type Dispatch } from 'react';
import type { CorrectionsAction } from '@extraction-review/review-domain/fields/corrections-reducer';
import { copyOfItem } from '@extraction-review/review-domain/corrections/duplicate-item';
import type { FieldActions } from './fields/field-actions';
import { viewerActions, type ViewerDispatch } from './viewer-state';

interface Options {
  dispatchViewer: ViewerDispatch;
  correct: Dispatch<CorrectionsAction>;
  /** Select a field (the viewer shows its page and polygon). */
  select: (path: string) => void;
  focusField: (path: string, target: 'row' | 'editor') => void;
}

/**
 * What the value controls do: hover and selection through the viewer state, edits through the
 * corrections. The same object as long as its inputs are, so the rows it reaches need not re-render.
 */
export function useFieldActions({ dispatchViewer, correct, select, focusField }: Options): FieldActions {
  return useMemo<FieldActions>(
    () => ({
      onFieldHover: (path) => dispatchViewer(viewerActions.hover(path)),
      onFieldSelect: select,
      onFieldChange: (node, value) =>
        correct({ type: 'set', path: node.path, value, original: node.original }),
      onRevert: (path) => correct({ type: 'revert', path }),
      onConfirm: (path) => {
        correct({ type: 'confirm', path });
        focusField(path, 'row');
      },
      onLeaveEditor: (path) => focusField(path, 'row'),
      onAddItem: (list) => {
        correct({ type: 'addItem', list: list.path });
        // The new item comes last: its first value gets the focus.
        focusField(`${list.path}[${list.items.length}]`, 'editor');
      },
      onDuplicateItem: (list, item) => {
        correct({
          type: 'duplicateItem',
          list: list.path,
          extractedCount: list.extractedCount,
          values: copyOfItem(item.node),
        });
        focusField(`${list.path}[${list.items.length}]`, 'editor');
      },
      onRemoveItem: (item) =>
        correct({
          type: 'removeItem',
          list: item.list,
          index: item.index,
          extractedCount: item.extractedCount,
        }),
      onRestoreItem: (path) => correct({ type: 'restoreItem', path }),
    }),
    [dispatchViewer, correct, select, focusField],
  );
}
