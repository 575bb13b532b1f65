/**
 * `/analytics` (admins): "Where time goes", for a model (or all) and a period, from the review store
 * (`GET /api/review/analytics`, docs/review-store.md "Where time goes"): the share of documents
 * confirmed automatically, the fields operators correct most with before → after examples, the time
 * spent per document and per operator, the queue's age. Each chart is drawn with patterns and its
 * values written on it, has its figures in a table underneath, and exports them as CSV.
 *
 * Loaded on demand (React.lazy in app.tsx): the chart library stays out of the entry chunk.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { analyticsUrl, type AnalyticsTable } from '@extraction-review/contract/review/analytics';
import type { AnalyticsFilter } from '../../api/review/analytics-endpoints';
import { analyticsQueryOptions } from '../../api/review/analytics-queries';
import { useModelNames } from '../../components/model-name';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { AdminOnlyPage } from '../../app/session/admin-only-page';
import { AnalyticsSummary } from './analytics-summary';
import { ChartPatterns } from './chart-patterns';
import { ConfirmationsChart } from './confirmations-chart';
import { CorrectedFields } from './corrected-fields';
import { dayInputValue, PERIOD_LABELS, periodOf, type PeriodChoice } from './period';
import { QueueAge } from './queue-age';
import { WorkTime } from './work-time';

export default function AnalyticsPage() {
  return (
    <AdminOnlyPage
      title="Where time goes"
      what="where time goes"
      notAdmin="Only admins see where time goes."
      width="max-w-5xl"
    >
      <Dashboard />
    </AdminOnlyPage>
  );
}

function Dashboard() {
  const nameOf = useModelNames();
  const [model, setModel] = useState('');
  const [choice, setChoice] = useState<PeriodChoice>('last-7-days');
  const [today] = useState(() => new Date());
  const [custom, setCustom] = useState({ from: dayInputValue(today), to: dayInputValue(today) });
  const ids = { model: useId(), period: useId(), from: useId(), to: useId(), problem: useId() };

  const period = periodOf(choice, today, custom);
  const filter: AnalyticsFilter | undefined =
    'problem' in period ? undefined : { model: model === '' ? undefined : model, ...period };
  const figures = useQuery({ ...analyticsQueryOptions(filter ?? {}), enabled: filter !== undefined });
  const csvUrl = (table: AnalyticsTable) => analyticsUrl({ ...filter, format: 'csv', table });

  return (
    <main className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-6">
      <ChartPatterns />
      <div>
        <h1 className="text-2xl font-semibold">Where time goes</h1>
        <p className="mt-1 text-sm text-slate-600">
          What operators confirm, correct and spend time on, per model and period: which data-schema guideline
          or rule to change.
        </p>
      </div>
      <form className="flex flex-wrap items-end gap-4" onSubmit={(event) => event.preventDefault()}>
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
            <option value="">All models</option>
            {figures.data?.models.map((entry) => (
              <option key={`${entry.apiVersion}:${entry.model}`} value={entry.model}>
                {nameOf(entry.apiVersion, entry.model)} ({entry.apiVersion})
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.period} className="text-sm font-medium">
            Period
          </label>
          <select
            id={ids.period}
            value={choice}
            onChange={(event) => setChoice(event.target.value as PeriodChoice)}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          >
            {Object.entries(PERIOD_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {choice === 'custom' && (
          <>
            {(['from', 'to'] as const).map((end) => (
              <div key={end} className="flex flex-col gap-1">
                <label htmlFor={ids[end]} className="text-sm font-medium">
                  {end === 'from' ? 'First day' : 'Last day (included)'}
                </label>
                <input
                  id={ids[end]}
                  type="date"
                  value={custom[end]}
                  onChange={(event) => setCustom({ ...custom, [end]: event.target.value })}
                  aria-invalid={'problem' in period ? true : undefined}
                  aria-describedby={'problem' in period ? ids.problem : undefined}
                  className="rounded-md border border-slate-300 px-3 py-2 text-sm"
                />
              </div>
            ))}
          </>
        )}
      </form>
      {'problem' in period && (
        <p id={ids.problem} className="text-sm text-red-700">
          {period.problem}
        </p>
      )}
      {figures.isError && <ProblemAlert error={figures.error} onRetry={() => void figures.refetch()} />}
      {figures.isPending && filter !== undefined && <Spinner label="Counting…" />}
      {figures.data !== undefined && (
        <div
          className={`flex flex-col gap-6 ${figures.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-busy={figures.isFetching}
        >
          <AnalyticsSummary figures={figures.data} />
          <CorrectedFields figures={figures.data} csvUrl={csvUrl} />
          <ConfirmationsChart figures={figures.data} csvUrl={csvUrl('confirmations')} />
          <WorkTime figures={figures.data} csvUrl={csvUrl} />
          <QueueAge figures={figures.data} csvUrl={csvUrl('queue')} />
        </div>
      )}
    </main>
  );
}
