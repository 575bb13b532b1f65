/**
 * Models by their names, everywhere a model is shown or chosen (issue 21: "models appear as UUIDs").
 * v2 models are named by the upstream's model search (`GET /v2/search/models`, kept for minutes);
 * a v1 product `mindee/expense_receipts/v5` reads "Expense receipts v5" (its account added when it is
 * not mindee). The id stays the key: it is shown on hover, and filters still send it.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { humanFieldName } from '@extraction-review/review-domain/fields/schema-hints';
import { modelsQueryOptions } from '../api/v2/queries';

export type ApiVersion = 'v2' | 'v1';

/** The upstream's page size for the search: the team's models fit in one page. */
const SEARCH = { per_page: 100 } as const;

/** A v1 product's human name: `mindee/invoices/v4` → "Invoices v4"; `acme/po/v2` → "Po v2 (acme)". */
export function v1ProductName(key: string): string {
  const [account, name, version] = key.split('/');
  if (account === undefined || name === undefined || version === undefined) return key;
  const label = `${humanFieldName(name)} ${version}`;
  return account === 'mindee' ? label : `${label} (${account})`;
}

/** `(apiVersion, model key)` → the name to show; a v2 model the search does not know keeps its id. */
export function useModelNames(): (apiVersion: ApiVersion, model: string) => string {
  const search = useQuery(modelsQueryOptions(SEARCH));
  const names = useMemo(
    () => new Map((search.data?.models ?? []).map((model) => [model.id, model.name] as const)),
    [search.data],
  );
  return useCallback(
    (apiVersion, model) => (apiVersion === 'v1' ? v1ProductName(model) : (names.get(model) ?? model)),
    [names],
  );
}

/** A model's name, its id on hover. */
export function ModelName({ apiVersion, model }: { apiVersion: ApiVersion; model: string }) {
  const nameOf = useModelNames();
  const name = nameOf(apiVersion, model);
  return <span title={name === model ? undefined : model}>{name}</span>;
}
