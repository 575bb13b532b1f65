/**
 * The field paths a model's rules may name (`GET …/fields`): offered as the admin types a rule's field,
 * and what the server checks a save against (422-015).
 */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../../api/keys';
import { callRoute } from '../../api/review/call-route';
import { getModelFields } from '@extraction-review/contract/review/routes/models';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';

export function modelFieldsQueryOptions(apiVersion: ApiVersion, model: string) {
  return queryOptions({
    queryKey: [...reviewKeys.modelSettings(apiVersion, model), 'fields'] as const,
    queryFn: ({ signal }) => callRoute(getModelFields, { params: { apiVersion, model } }, { signal }),
    staleTime: 60_000,
  });
}

/** The fields of a list's items (`line_items[*].total_price` → `total_price`), for a sum's item. */
export function itemFieldNames(paths: readonly string[]): string[] {
  const names = new Set<string>();
  for (const path of paths) {
    const match = /\[\*\]\.([^.[\]]+)$/.exec(path);
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return [...names];
}
