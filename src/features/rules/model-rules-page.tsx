import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import type { ModelSettings } from '@extraction-review/contract/review/model-settings';
import { modelSettingsQueryOptions } from '../../api/review/model-settings-endpoints';
import { sessionQueryOptions } from '../../api/review/queries';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import { ModelName } from '../../components/model-name';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { formatSaved } from './format-saved';
import { SettingsForm } from './settings-form';
import { UncheckedGateControl } from './unchecked-gate-control';
import { PurgeLogSection } from './purge-log-section';

/** `/rules/{apiVersion}/{model}`: one model's routing and business rules; admins edit them. */
export function ModelRulesPage({ apiVersion, model }: { apiVersion: ApiVersion; model: string }) {
  const session = useQuery(sessionQueryOptions());
  const settings = useQuery(modelSettingsQueryOptions(apiVersion, model));
  const [saved, setSaved] = useState<ModelSettings | null>(null);
  const isAdmin = session.data?.operator.role === 'admin';

  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-4 p-6">
      <p className="text-sm">
        <Link href="/rules" className="text-blue-800 underline">
          All models
        </Link>
      </p>
      <div>
        <h1 className="text-2xl font-semibold">
          Rules of <ModelName apiVersion={apiVersion} model={model} />{' '}
          <span className="text-base font-normal text-slate-700">({apiVersion})</span>
        </h1>
        {settings.data && <p className="mt-1 text-sm text-slate-700">{formatSaved(settings.data)}</p>}
      </div>
      {saved && saved.version === settings.data?.version && (
        <p
          role="status"
          className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-slate-900"
        >
          Saved (version {saved.version}).
        </p>
      )}
      {settings.isPending && <Spinner label="Loading the rules…" />}
      {settings.isError && <ProblemAlert error={settings.error} onRetry={() => void settings.refetch()} />}
      {settings.data &&
        (isAdmin ? (
          <SettingsForm
            key={settings.data.version}
            settings={settings.data}
            onSaved={setSaved}
            onReload={() => {
              setSaved(null);
              void settings.refetch();
            }}
          />
        ) : (
          <p className="text-sm text-slate-700">Only admins change the rules. Ask an admin.</p>
        ))}
      {/* Right after the form, whose last part is the retention the purges apply. */}
      {isAdmin && <PurgeLogSection apiVersion={apiVersion} model={model} />}
      <UncheckedGateControl apiVersion={apiVersion} model={model} isAdmin={isAdmin} />
    </main>
  );
}
