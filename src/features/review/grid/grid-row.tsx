import { memo } from 'react';
import { FieldNode } from '../fields/field-node';
import { itemRef } from '../fields/field-actions';
import { DuplicateItemButton, ItemButton } from '../fields/item-button';
import { TableCell } from '../fields/table-cell';
import type { ListItem, ListNode } from '@extraction-review/review-domain/fields/review-tree';
import { useRowSelected } from './use-row-selected';

interface Props {
  list: ListNode;
  item: ListItem;
  /** The row's place among the grid's rows (what the keys count), not its index in the list. */
  row: number;
  readOnly: boolean;
}

/**
 * One row of the grid: its number, a cell per column (each at its grid place, for the keys), and its
 * actions, kept in view at the right however far the grid is scrolled. The selected row is tinted,
 * as its region is on the page.
 */
export const GridRow = memo(function GridRow({ list, item, row, readOnly }: Props) {
  const selected = useRowSelected(item.path);
  const off = readOnly || item.removed;
  const children = item.node.kind === 'object' ? item.node.children : null;
  const tint = item.removed ? 'bg-slate-100' : selected ? 'bg-sky-50' : 'bg-white';
  const edge = 'border-b border-slate-200';
  return (
    <tr data-item-path={item.path} aria-selected={selected} className={`align-top ${tint}`}>
      <th
        scope="row"
        className={`sticky left-0 z-10 px-2 py-1.5 text-right font-normal whitespace-nowrap text-slate-800 ${edge} ${tint} ${
          selected ? 'shadow-[inset_4px_0_0_var(--color-blue-700)]' : ''
        } ${item.removed ? 'line-through' : ''}`}
      >
        {item.index + 1}
        {item.added && <span className="ml-1 text-violet-800">new</span>}
        {item.removed && <span className="sr-only"> (removed)</span>}
      </th>
      {children ? (
        list.columns.map((column, col) => {
          const child = children.find((c) => c.name === column.name);
          const at = { row, col };
          if (child?.kind === 'simple')
            return <TableCell key={column.name} node={child} row={item.node.title} disabled={off} at={at} />;
          return (
            <td
              key={column.name}
              tabIndex={-1}
              data-grid-row={row}
              data-grid-col={col}
              className={`px-1 py-1 focus:outline-2 focus:outline-blue-700 ${edge}`}
            >
              {child ? (
                <ul className="min-w-64">
                  <FieldNode node={child} disabled={off} />
                </ul>
              ) : (
                <span className="px-1 text-slate-700">
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">not returned</span>
                </span>
              )}
            </td>
          );
        })
      ) : (
        <td
          colSpan={list.columns.length}
          tabIndex={-1}
          data-grid-row={row}
          data-grid-col={0}
          className={`px-1 py-1 ${edge}`}
        >
          <ul>
            <FieldNode node={item.node} disabled={off} />
          </ul>
        </td>
      )}
      <td
        className={`sticky right-0 z-10 px-2 py-1 whitespace-nowrap shadow-[inset_1px_0_0_var(--color-slate-300)] ${edge} ${tint}`}
      >
        {!readOnly && (
          <span className="flex items-center gap-1">
            <DuplicateItemButton list={list} item={item} />
            <ItemButton item={itemRef(list, item)} />
          </span>
        )}
      </td>
    </tr>
  );
});
