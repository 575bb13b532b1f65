/**
 * How many documents an export holds, asked before the download (`GET /api/exports/confirmed/count`):
 * an empty export is said on the page instead of downloading an empty file.
 */
import { queryOptions } from '@tanstack/react-query';
import { reviewKeys } from '../../api/keys';
import { callRoute } from '../../api/review/call-route';
import type { ExportQuery } from '@extraction-review/contract/review/exports';
import { countExport } from '@extraction-review/contract/review/routes/exports';

export function exportCountQueryOptions(query: ExportQuery) {
  // The format does not change the count: one entry for both.
  const filters = { model: query.model, from: query.from, to: query.to };
  return queryOptions({
    queryKey: [...reviewKeys.all, 'exports', 'count', filters] as const,
    queryFn: ({ signal }) => callRoute(countExport, { query: filters }, { signal }),
  });
}
