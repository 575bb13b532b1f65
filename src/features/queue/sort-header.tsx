import type { QueueSort, QueueSortKey } from '@extraction-review/contract/review/schemas';

interface Props {
  label: string;
  column: QueueSortKey;
  /** The list's order now (`-received` when none is chosen). */
  sort: QueueSort;
  onSort: (sort: QueueSort) => void;
}

/** Whichever way a column first sorts when clicked: times newest first, priorities highest first. */
const FIRST: Record<QueueSortKey, 'asc' | 'desc'> = {
  received: 'desc',
  priority: 'desc',
  name: 'asc',
  model: 'asc',
  state: 'asc',
};

/** The order after a click on `column`: its first way, or the other way when it sorts already. */
export function nextSort(sort: QueueSort, column: QueueSortKey): QueueSort {
  const current = sort.replace(/^-/, '');
  const descending = sort.startsWith('-');
  const direction = current === column ? (descending ? 'asc' : 'desc') : FIRST[column];
  return direction === 'desc' ? `-${column}` : column;
}

/** A column header that sorts the queue: a button, and `aria-sort` saying how the list is sorted now. */
export function SortHeader({ label, column, sort, onSort }: Props) {
  const active = sort.replace(/^-/, '') === column;
  const descending = sort.startsWith('-');
  const ariaSort = !active ? 'none' : descending ? 'descending' : 'ascending';
  return (
    <th scope="col" aria-sort={ariaSort} className="px-3 py-2 font-semibold whitespace-nowrap">
      <button
        type="button"
        onClick={() => onSort(nextSort(sort, column))}
        className="inline-flex items-center gap-1 rounded hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        {label}
        <span aria-hidden="true" className={active ? 'text-slate-900' : 'text-slate-400'}>
          {active ? (descending ? '▼' : '▲') : '↕'}
        </span>
      </button>
    </th>
  );
}
