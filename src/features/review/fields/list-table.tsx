import { ListHeader } from './list-header';
import type { ListNode } from '@extraction-review/review-domain/fields/review-tree';
import { TableRow } from './table-row';

/**
 * A list of objects as an editable table: one row per item, one column per sub-field. Each cell is a
 * control named by its path (`line_items[1].description`) and linked with its polygon. Rows are added
 * at the end and removed (struck through, restorable) with the buttons of their last column.
 */
export function ListTable({ node, disabled }: { node: ListNode; disabled?: boolean | undefined }) {
  return (
    <li className="rounded-md border border-slate-200 bg-white">
      <ListHeader node={node} noun="row" disabled={disabled} />
      {node.items.length > 0 && (
        <div
          role="region"
          aria-label={`${node.path} table`}
          tabIndex={0}
          className="relative overflow-x-auto border-t border-slate-100"
        >
          <table className="w-full border-collapse text-left text-xs">
            <caption className="sr-only">{node.path}</caption>
            <thead className="bg-slate-50 text-slate-800">
              <tr>
                <th scope="col" className="sticky left-0 z-10 bg-slate-50 px-2 py-1 font-semibold">
                  #
                </th>
                {node.columns.map((column) => (
                  <th key={column.name} scope="col" className="px-2 py-1 font-mono font-semibold">
                    {column.name}
                  </th>
                ))}
                <th scope="col" className="px-2 py-1">
                  <span className="sr-only">Row actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {node.items.map((item) => (
                <TableRow key={item.path} list={node} item={item} disabled={disabled} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}
