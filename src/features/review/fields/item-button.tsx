import { useFieldActions, type ItemRef } from './field-actions';
import type { ListItem, ListNode } from '@extraction-review/review-domain/fields/review-tree';

/** Remove a list item, or restore one the operator removed. */
export function ItemButton({ item, disabled }: { item: ItemRef; disabled?: boolean | undefined }) {
  const a = useFieldActions();
  const restore = item.removed;
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={(event) => {
        event.stopPropagation();
        if (restore) a.onRestoreItem(item.path);
        else a.onRemoveItem(item);
      }}
      aria-label={`${restore ? 'Restore' : 'Remove'} ${item.title}`}
      className="rounded px-1 text-xs text-blue-800 underline hover:bg-blue-100 disabled:text-slate-500"
    >
      {restore ? 'Restore' : 'Remove'}
    </button>
  );
}

/** Add an item at the end of a list; in its place, the reason when the item's shape is unknown. */
export function AddItemButton({ list, disabled }: { list: ListNode; disabled?: boolean | undefined }) {
  const a = useFieldActions();
  const what = list.itemKind === 'object' ? 'a row' : 'an item';
  if (list.template == null) {
    return (
      <span className="text-xs text-slate-700">Empty, and the schema does not say what an item holds.</span>
    );
  }
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={() => a.onAddItem(list)}
      aria-label={`Add ${what} to ${list.title}`}
      className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-900 hover:bg-slate-100 disabled:text-slate-500"
    >
      + Add {what}
    </button>
  );
}

/**
 * Add a copy of a row at the end of its table (its values as shown; duplicate-item.ts says what is
 * not copied). A removed row is not copied: restore it first.
 */
export function DuplicateItemButton({
  list,
  item,
  disabled,
}: {
  list: ListNode;
  item: ListItem;
  disabled?: boolean | undefined;
}) {
  const a = useFieldActions();
  if (list.template == null) return null;
  return (
    <button
      type="button"
      disabled={disabled || item.removed}
      onClick={(event) => {
        event.stopPropagation();
        a.onDuplicateItem(list, item);
      }}
      aria-label={`Duplicate ${item.node.title}`}
      title="Add a copy of this row at the end of the table"
      className="rounded px-1 text-xs text-blue-800 underline hover:bg-blue-100 disabled:text-slate-500 disabled:no-underline"
    >
      Duplicate
    </button>
  );
}
