import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { modelsQueryOptions } from '../../api/review/model-settings-endpoints';
import { ModelName } from '../../components/model-name';
import { formatNumber } from '../../lib/format';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';

/** `/rules`: every model with documents or settings, how its documents are routed, and its rules. */
export function RulesPage() {
  const models = useQuery(modelsQueryOptions());
  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-4 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Rules</h1>
        <p className="mt-1 text-sm text-slate-700">
          Per model: which documents sent by an integration are confirmed on their own, and the business rules
          their values must pass.
        </p>
      </div>
      {models.isPending && <Spinner label="Loading the models…" />}
      {models.isError && <ProblemAlert error={models.error} onRetry={() => void models.refetch()} />}
      {models.data?.models.length === 0 && (
        <p className="text-sm text-slate-700">
          No model yet: models appear here once a document of theirs arrives.
        </p>
      )}
      {models.data && models.data.models.length > 0 && (
        <table className="w-full text-left text-sm">
          <thead className="border-b border-slate-300 text-xs text-slate-700">
            <tr>
              <th className="py-2">Model</th>
              <th>API</th>
              <th>Documents</th>
              <th>Routing</th>
              <th>Business rules</th>
            </tr>
          </thead>
          <tbody>
            {models.data.models.map((m) => (
              <tr key={`${m.apiVersion} ${m.model}`} className="border-b border-slate-100">
                <td className="py-2">
                  <Link
                    href={`/rules/${m.apiVersion}/${encodeURIComponent(m.model)}`}
                    className="text-blue-800 underline"
                  >
                    <ModelName apiVersion={m.apiVersion} model={m.model} />
                  </Link>
                </td>
                <td>{m.apiVersion}</td>
                <td className="tabular-nums">{formatNumber(m.documents)}</td>
                <td>{m.routing.autoConfirm ? 'Automatic confirmation' : 'Every document reviewed'}</td>
                <td>{m.rules.length === 0 ? 'None' : m.rules.map((r) => r.id).join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
