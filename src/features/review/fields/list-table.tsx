import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { LineItemGrid } from '../grid/line-item-grid';
import { ListHeader } from './list-header';
import type { ListNode } from '@extraction-review/review-domain/fields/review-tree';
import { TableRow } from './table-row';

/**
 * A list of objects as an editable table: one row per item, one column per sub-field. Each cell is a
 * control named by its path (`line_items[1].description`) and linked with its polygon. Rows are added
 * at the end and removed (struck through, restorable) with the buttons of their last column.
 *
 * "Open as grid" shows the same rows over the window's whole width (grid/line-item-grid.tsx), where
 * every column is readable; this table is then left out (the grid holds the cells meanwhile).
 */
export function ListTable({ node, disabled }: { node: ListNode; disabled?: boolean | undefined }) {
  const self = useRef<HTMLLIElement>(null);
  const opener = useRef<HTMLAnchorElement>(null);
  const [grid, setGrid] = useState<{ readOnly: boolean } | null>(null);
  const open = (event: MouseEvent | KeyboardEvent) => {
    event.preventDefault();
    // A read-only review disables its values with a fieldset around them; the grid, drawn outside
    // it, is told instead.
    setGrid({ readOnly: Boolean(disabled) || self.current?.closest('fieldset[disabled]') != null });
  };
  const close = () => {
    setGrid(null);
    opener.current?.focus();
  };
  return (
    <li ref={self} className="rounded-md border border-slate-200 bg-white">
      <ListHeader
        node={node}
        noun="row"
        disabled={disabled}
        actions={
          // A link-like button: a read-only review's fieldset disables every button in it, and a
          // read-only grid is still to be opened.
          <a
            ref={opener}
            href="#"
            role="button"
            aria-label={`Open as grid: ${node.title}`}
            aria-haspopup="dialog"
            aria-expanded={grid != null}
            onClick={open}
            onKeyDown={(event) => {
              if (event.key === ' ') open(event);
            }}
            className="rounded border border-blue-800 bg-white px-2 py-0.5 text-xs font-medium text-blue-900 no-underline hover:bg-blue-50"
          >
            Open as grid
          </a>
        }
      />
      {grid && <LineItemGrid list={node} readOnly={grid.readOnly} onClose={close} />}
      {grid ? (
        <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-700">
          The rows are open in the grid below the page.
        </p>
      ) : (
        node.items.length > 0 && (
          <div
            role="region"
            aria-label={`${node.title} table`}
            tabIndex={0}
            className="relative overflow-x-auto border-t border-slate-100"
          >
            <table className="w-full border-collapse text-left text-xs">
              <caption className="sr-only">{node.title}</caption>
              <thead className="bg-slate-50 text-slate-800">
                <tr>
                  <th scope="col" className="sticky left-0 z-10 bg-slate-50 px-2 py-1 font-semibold">
                    #
                  </th>
                  {node.columns.map((column) => (
                    <th
                      key={column.name}
                      scope="col"
                      title={column.name}
                      className="px-2 py-1 font-semibold whitespace-nowrap"
                    >
                      {column.title}
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
        )
      )}
    </li>
  );
}
