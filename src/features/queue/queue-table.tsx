import type { QueueDocument } from '@extraction-review/contract/review/schemas';
import { QueueRow } from './queue-row';

interface Props {
  documents: QueueDocument[];
  page: number;
  me: string | undefined;
  now: number;
  /** The rows shown are the previous page's while the next one loads. */
  stale?: boolean;
}

const COLUMNS = [
  'File',
  'Alias',
  'Model',
  'State',
  'Held or decided by',
  'Fields to review',
  'Age',
  'Reason',
];

/** A page of the queue as a table, newest first (the server's order). */
export function QueueTable({ documents, page, me, now, stale = false }: Props) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table aria-busy={stale} className={`w-full text-left text-sm ${stale ? 'opacity-60' : ''}`}>
        <caption className="px-3 py-2 text-left text-sm font-semibold">
          Documents, newest first: page {page}
        </caption>
        <thead className="bg-slate-50 text-xs text-slate-700">
          <tr>
            {COLUMNS.map((name) => (
              <th key={name} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {documents.map((document) => (
            <QueueRow key={document.id} document={document} me={me} now={now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
