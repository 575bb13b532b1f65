import type { ReactNode } from 'react';
import { ConfidenceBadge } from './confidence-badge';
import { AddItemButton } from './item-button';
import type { ListNode } from '@extraction-review/review-domain/fields/review-tree';

/** The head of a list (of values or of rows): its title (the path on hover), how many items are kept, confidence, "add". */
export function ListHeader({
  node,
  noun,
  disabled,
  actions,
}: {
  node: ListNode;
  /** What an item is called, e.g. "item" or "row" (an "s" is added for the plural). */
  noun: string;
  disabled?: boolean | undefined;
  /** More buttons, before "add" (a table's "Open as grid"). */
  actions?: ReactNode;
}) {
  const kept = node.items.filter((i) => !i.removed).length;
  const count = `${noun === 'row' ? 'table, ' : ''}${kept} ${noun}${kept === 1 ? '' : 's'}`;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 px-3 py-1">
      <span title={node.path} className="text-sm font-semibold text-slate-900">
        {node.title} <span className="text-xs font-normal text-slate-700">({count})</span>
      </span>
      <span className="flex items-center gap-2">
        {node.confidence && <ConfidenceBadge confidence={node.confidence} />}
        {actions}
        <AddItemButton list={node} disabled={disabled} />
      </span>
    </div>
  );
}
