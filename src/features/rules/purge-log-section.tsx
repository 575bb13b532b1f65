import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { PurgeRun } from '@extraction-review/contract/review/purge-log';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import { purgeRunsQueryOptions } from '../../api/review/purge-log-endpoints';
import { ProblemAlert } from '../../components/problem-alert';
import { formatDateTime } from '../../lib/format';

interface Props {
  apiVersion: ApiVersion;
  model: string;
}

const nothingDone = (run: PurgeRun) =>
  run.filesRemoved === 0 && run.documentsDeleted === 0 && run.errors.length === 0;
const ranBy = (run: PurgeRun) => (run.trigger === 'command' ? run.copy : `Background purge, ${run.copy}`);

/**
 * What the retention purge removed of this model (issue 22), for admins, beside the retention it
 * applies: the purges that removed files or deleted documents of it, or failed, newest first, and
 * when the purge last looked (any model). Counts only: which documents is in the audit log's
 * tombstones, without their names.
 */
export function PurgeLogSection({ apiVersion, model }: Props) {
  const id = useId();
  const runs = useQuery(purgeRunsQueryOptions());
  const latest = runs.data?.runs[0];
  const mine = (runs.data?.runs ?? []).flatMap((run) => {
    const counts = run.models.find((m) => m.apiVersion === apiVersion && m.model === model);
    return counts !== undefined || run.errors.length > 0 ? [{ run, counts }] : [];
  });

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-2 rounded-md border border-slate-300 bg-white p-4"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Retention purges
      </h2>
      {runs.isError && <ProblemAlert error={runs.error} onRetry={() => void runs.refetch()} />}
      {runs.isPending && <p className="text-sm text-slate-700">Loading the purge log…</p>}
      {runs.data && (
        <p className="text-sm text-slate-700">
          {latest === undefined
            ? 'The purge has not run yet: each app-server copy runs it in the background (one at a time), or run npm run documents -- purge.'
            : `Last purge: ${formatDateTime(latest.finishedAt)} (${ranBy(latest)})${nothingDone(latest) ? ', nothing was due' : ''}.`}{' '}
          Which documents went is in the audit log, without their names.
        </p>
      )}
      {runs.data &&
        (mine.length === 0 ? (
          <p className="text-sm">Nothing of this model has been purged.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Purges of this model, newest first</caption>
            <thead className="border-b border-slate-300 text-slate-700">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  When
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Ran by
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Files removed
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Documents deleted
                </th>
                <th scope="col" className="py-1 font-medium">
                  Problems
                </th>
              </tr>
            </thead>
            <tbody>
              {mine.map(({ run, counts }) => (
                <tr key={run.id} className="border-b border-slate-200 align-top last:border-0">
                  <td className="py-1 pr-3 whitespace-nowrap">{formatDateTime(run.startedAt)}</td>
                  <td className="py-1 pr-3 break-words">{ranBy(run)}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{counts?.filesRemoved ?? 0}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{counts?.documentsDeleted ?? 0}</td>
                  <td className="py-1">
                    {run.errors.length === 0 ? (
                      <span className="text-slate-700">None</span>
                    ) : (
                      <ul className="list-disc pl-4 text-red-800">
                        {run.errors.map((error, i) => (
                          <li key={i}>{error}</li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
