import { ApiVersion } from '@extraction-review/contract/review/schemas';
import { ModelRulesPage } from '../features/rules/model-rules-page';

/** `/rules/{apiVersion}/{model}`: the model is one URL-encoded segment (`mindee%2Finvoices%2Fv4` for v1). */
export function ModelRulesRoute({ apiVersion, model }: { apiVersion: string; model: string }) {
  const version = ApiVersion.safeParse(apiVersion);
  if (!version.success)
    return (
      <main className="mx-auto max-w-2xl p-8">
        <h1 className="text-xl font-semibold">Page not found</h1>
        <p className="mt-2">An API version is v2 or v1.</p>
      </main>
    );
  return <ModelRulesPage apiVersion={version.data} model={decode(model)} />;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
