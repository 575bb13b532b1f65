/**
 * `/exports` (admins): confirmed documents of a model, in a date range, as JSON lines or CSV. The file
 * is the server's stream (`GET /api/exports/confirmed`, docs/gateway.md "Exports"), downloaded by a
 * plain link: nothing is held in the page, whatever its size. The form checks what it sends with the
 * server's own schema, as the admin types.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ExportQuery, exportUrl, type ExportFormat } from '@extraction-review/contract/review/exports';
import { modelsQueryOptions } from '../../api/review/model-settings-endpoints';
import { useModelNames } from '../../components/model-name';
import { formatNumber } from '../../lib/format';
import { ProblemAlert } from '../../components/problem-alert';
import { exportCountQueryOptions } from './export-count';
import { AdminOnlyPage } from '../../app/session/admin-only-page';

export function ExportsPage() {
  return (
    <AdminOnlyPage
      title="Exports"
      what="the exports"
      notAdmin="Only admins export confirmed documents."
      width="max-w-3xl"
    >
      <ExportForm />
    </AdminOnlyPage>
  );
}

function ExportForm() {
  const models = useQuery(modelsQueryOptions());
  const nameOf = useModelNames();
  const [model, setModel] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const ids = { model: useId(), from: useId(), to: useId(), errors: useId() };

  const query = { model, format, from: from || undefined, to: to || undefined };
  const checked = ExportQuery.safeParse(query);
  // Asked for the filters as they are: the page says how many before the download, and "nothing".
  const count = useQuery({ ...exportCountQueryOptions(query), enabled: checked.success });
  const empty = count.data?.count === 0;
  const problems = checked.success
    ? []
    : checked.error.issues
        // An empty model is said by the disabled button, not as an error before anything was chosen.
        .filter((issue) => !(issue.path[0] === 'model' && model === ''))
        .map((issue) => issue.message);

  return (
    <main className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Exports</h1>
        <p className="mt-1 text-sm text-slate-600">
          The validated values of confirmed documents: CSV with one row per line item, or JSON lines with one
          document per line. The range bounds the confirmation date (both days included).
        </p>
      </div>
      {models.isError && <ProblemAlert error={models.error} onRetry={() => void models.refetch()} />}
      <form className="flex flex-col gap-4" onSubmit={(event) => event.preventDefault()}>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.model} className="text-sm font-medium">
            Model
          </label>
          <select
            id={ids.model}
            value={model}
            onChange={(event) => setModel(event.target.value)}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          >
            <option value="">{models.isPending ? 'Loading models…' : 'Choose a model'}</option>
            {models.data?.models.map((entry) => (
              <option key={`${entry.apiVersion}:${entry.model}`} value={entry.model}>
                {nameOf(entry.apiVersion, entry.model)} ({entry.apiVersion}, {formatNumber(entry.documents)}{' '}
                document{entry.documents === 1 ? '' : 's'})
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-wrap gap-4">
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.from} className="text-sm font-medium">
              Confirmed from
            </label>
            <input
              id={ids.from}
              type="date"
              value={from}
              onChange={(event) => setFrom(event.target.value)}
              aria-describedby={problems.length > 0 ? ids.errors : undefined}
              className="rounded-md border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.to} className="text-sm font-medium">
              Confirmed to (included)
            </label>
            <input
              id={ids.to}
              type="date"
              value={to}
              onChange={(event) => setTo(event.target.value)}
              aria-invalid={problems.length > 0 ? true : undefined}
              aria-describedby={problems.length > 0 ? ids.errors : undefined}
              className="rounded-md border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
        </div>
        <fieldset className="flex gap-4">
          <legend className="mb-1 text-sm font-medium">Format</legend>
          {(['csv', 'jsonl'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="format"
                value={value}
                checked={format === value}
                onChange={() => setFormat(value)}
              />
              {value === 'csv' ? 'CSV (one row per line item)' : 'JSON lines (one document per line)'}
            </label>
          ))}
        </fieldset>
        {problems.length > 0 && (
          <ul id={ids.errors} className="text-sm text-red-700">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
        {checked.success && (
          <div aria-live="polite" className="text-sm">
            {count.isPending ? (
              <p className="text-slate-600">Counting the documents…</p>
            ) : count.isError ? (
              <ProblemAlert error={count.error} onRetry={() => void count.refetch()} />
            ) : empty ? (
              <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
                Nothing to export for these filters: no document of this model was confirmed in this range.
              </p>
            ) : (
              <p className="text-slate-700">
                {formatNumber(count.data.count)} document{count.data.count === 1 ? '' : 's'} to export.
              </p>
            )}
          </div>
        )}
        <div>
          {checked.success && !empty ? (
            <a
              href={exportUrl(query)}
              download
              className="inline-block rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
            >
              Download
            </a>
          ) : (
            <button
              type="button"
              disabled
              className="rounded-md bg-slate-300 px-4 py-2 text-sm font-medium text-slate-600"
            >
              Download
            </button>
          )}
        </div>
      </form>
    </main>
  );
}
