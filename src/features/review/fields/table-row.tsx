import { FieldNode } from './field-node';
import { itemRef } from './field-actions';
import { ItemButton } from './item-button';
import type { ListItem, ListNode } from '@extraction-review/review-domain/fields/review-tree';
import { TableCell } from './table-cell';

/** One item of a table: a cell per column (`—` where the item has no such sub-field). */
export function TableRow({
  list,
  item,
  disabled,
}: {
  list: ListNode;
  item: ListItem;
  disabled?: boolean | undefined;
}) {
  const off = disabled || item.removed;
  const children = item.node.kind === 'object' ? item.node.children : null;
  return (
    <tr
      data-item-path={item.path}
      className={`border-t border-slate-100 align-top ${item.removed ? 'bg-slate-100' : ''}`}
    >
      <th
        scope="row"
        className={`sticky left-0 z-10 px-2 py-1 font-normal text-slate-800 ${item.removed ? 'bg-slate-100 line-through' : 'bg-white'}`}
      >
        {item.index + 1}
        {item.added && <span className="ml-1 text-violet-800">new</span>}
        {item.removed && <span className="sr-only"> (removed)</span>}
      </th>
      {children ? (
        list.columns.map((column) => {
          const child = children.find((c) => c.name === column.name);
          if (!child) {
            return (
              <td key={column.name} className="px-2 py-1 text-slate-700">
                <span aria-hidden="true">—</span>
                <span className="sr-only">not returned</span>
              </td>
            );
          }
          if (child.kind === 'simple')
            return <TableCell key={column.name} node={child} row={item.node.title} disabled={off} />;
          return (
            <td key={column.name} className="px-1 py-1">
              <ul className="min-w-48">
                <FieldNode node={child} disabled={off} />
              </ul>
            </td>
          );
        })
      ) : (
        <td colSpan={list.columns.length} className="px-1 py-1">
          <ul>
            <FieldNode node={item.node} disabled={off} />
          </ul>
        </td>
      )}
      <td className="px-2 py-1">
        <ItemButton item={itemRef(list, item)} disabled={disabled} />
      </td>
    </tr>
  );
}
