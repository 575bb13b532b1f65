import type { QueueDocument, QueueSort, QueueSortKey } from '@extraction-review/contract/review/schemas';
import { QueueRow } from './queue-row';
import { SortHeader } from './sort-header';
import type { Selection } from './use-selection';

interface Props {
  documents: QueueDocument[];
  page: number;
  me: string | undefined;
  now: number;
  /** The rows shown are the previous page's while the next one loads. */
  stale?: boolean;
  /** The list's order (the server's); a header click asks for another. */
  sort?: QueueSort;
  onSort?: (sort: QueueSort) => void;
  /** Admins: a box per row and one for the page, for the bulk actions. */
  selection?: Selection | undefined;
}

const COLUMNS: { name: string; sort?: QueueSortKey }[] = [
  { name: 'File', sort: 'name' },
  { name: 'Alias' },
  { name: 'Model', sort: 'model' },
  { name: 'State', sort: 'state' },
  { name: 'Priority', sort: 'priority' },
  { name: 'Held or decided by' },
  { name: 'Fields to review' },
  { name: 'Age', sort: 'received' },
  { name: 'Reason' },
];

const ORDER_WORDS: Record<QueueSortKey, [string, string]> = {
  received: ['oldest first', 'newest first'],
  name: ['by file name, A to Z', 'by file name, Z to A'],
  model: ['by model, A to Z', 'by model, Z to A'],
  state: ['by state, A to Z', 'by state, Z to A'],
  priority: ['lowest priority first', 'highest priority first'],
};

/** A page of the queue as a table, in the server's order. */
export function QueueTable({
  documents,
  page,
  me,
  now,
  stale = false,
  sort = '-received',
  onSort,
  selection,
}: Props) {
  const key = sort.replace(/^-/, '') as QueueSortKey;
  const order = ORDER_WORDS[key][sort.startsWith('-') ? 1 : 0];
  const allSelected =
    selection !== undefined && documents.length > 0 && selection.selected.size === documents.length;
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table aria-busy={stale} className={`w-full text-left text-sm ${stale ? 'opacity-60' : ''}`}>
        <caption className="px-3 py-2 text-left text-sm font-semibold">
          Documents, {order}: page {page}
        </caption>
        <thead className="bg-slate-50 text-xs text-slate-700">
          <tr>
            {selection !== undefined && (
              <th scope="col" className="w-8 px-3 py-2">
                <input
                  type="checkbox"
                  aria-label="Select every document of this page"
                  checked={allSelected}
                  ref={(box) => {
                    if (box) box.indeterminate = selection.selected.size > 0 && !allSelected;
                  }}
                  onChange={(e) => selection.setAll(e.target.checked)}
                  className="size-4"
                />
              </th>
            )}
            {COLUMNS.map((column) =>
              column.sort !== undefined && onSort !== undefined ? (
                <SortHeader
                  key={column.name}
                  label={column.name}
                  column={column.sort}
                  sort={sort}
                  onSort={onSort}
                />
              ) : (
                <th key={column.name} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                  {column.name}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <QueueRow
              key={document.id}
              document={document}
              me={me}
              now={now}
              selected={selection === undefined ? undefined : selection.selected.has(document.id)}
              onToggle={selection?.toggle}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}
