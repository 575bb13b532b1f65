/**
 * One chart of the page: its heading, what it counts, the chart as an image named by a sentence that
 * says what it shows, "Export CSV" (the server's table of the same figures), and the same figures as a
 * table underneath, for screen readers, for copying, and for anyone the chart does not serve.
 */
import { useId, type ReactNode } from 'react';

interface Props {
  title: string;
  description: ReactNode;
  /** The chart's accessible name: what it shows, in a sentence. */
  summary?: string;
  csvUrl: string;
  chart?: ReactNode;
  table: ReactNode;
}

export function ChartSection({ title, description, summary, csvUrl, chart, table }: Props) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        <a
          href={csvUrl}
          download
          aria-label={`Export CSV of ${title.toLowerCase()}`}
          className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium text-blue-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          Export CSV
        </a>
      </div>
      <p className="text-sm text-slate-600">{description}</p>
      {chart !== undefined && (
        <div role="img" aria-label={summary} className="w-full">
          {chart}
        </div>
      )}
      <div className="overflow-x-auto">{table}</div>
    </section>
  );
}

/** A plain table of figures: a caption for screen readers, numbers right-aligned. */
export function FiguresTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: readonly { label: string; numeric?: boolean }[];
  rows: readonly { key: string; cells: readonly ReactNode[] }[];
}) {
  return (
    <table className="w-full border-collapse text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300 text-left">
          {columns.map((column) => (
            <th
              key={column.label}
              scope="col"
              className={`px-2 py-1 font-medium ${column.numeric === true ? 'text-right' : ''}`}
            >
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-b border-slate-100">
            {row.cells.map((cell, index) => (
              <td
                key={index}
                className={`px-2 py-1 align-top ${columns[index]?.numeric === true ? 'text-right tabular-nums' : ''}`}
              >
                {cell}
              </td>
            ))}
          </tr>
        ))}
        {rows.length === 0 && (
          <tr>
            <td colSpan={columns.length} className="px-2 py-2 text-slate-600">
              Nothing in this period.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
