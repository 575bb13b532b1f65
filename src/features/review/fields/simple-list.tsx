import { FieldNode } from './field-node';
import { itemRef } from './field-actions';
import { ListHeader } from './list-header';
import { FieldRow } from './field-row';
import type { ListNode } from '@extraction-review/review-domain/fields/review-tree';

/** A list of simple values: one editor per item, items added and removed. */
export function SimpleList({ node, disabled }: { node: ListNode; disabled?: boolean | undefined }) {
  return (
    <li className="rounded-md border border-slate-200 bg-white">
      <ListHeader node={node} noun="item" disabled={disabled} />
      {node.items.length > 0 && (
        <ul aria-label={node.title} className="flex flex-col gap-1 border-t border-slate-100 py-1 pl-3">
          {node.items.map((item) =>
            item.node.kind === 'simple' ? (
              <FieldRow
                key={item.path}
                node={item.node}
                disabled={disabled || item.removed}
                item={itemRef(node, item)}
              />
            ) : (
              <FieldNode key={item.path} node={item.node} disabled={disabled || item.removed} />
            ),
          )}
        </ul>
      )}
    </li>
  );
}
