/**
 * GET /v2/search/models: the hosted service's model search (beyond the spec; shape from the fixture
 * v2/search/models.json). Filters: `name` (substring, any case), `model_type`; pages: `page`,
 * `per_page` (default 50, at most 100).
 */
import type { Context } from 'hono';
import { ProblemError, type ProblemItem } from '@extraction-review/contract/problem';
import type { ModelCatalog } from '../models/model-catalog';

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 100;

export function searchModelsHandler(deps: { models: ModelCatalog }) {
  return (c: Context): Response => {
    const errors: ProblemItem[] = [];
    const page = positiveInteger(c.req.query('page'), 1, 'page', errors);
    const perPage = positiveInteger(c.req.query('per_page'), DEFAULT_PER_PAGE, 'per_page', errors);
    if (perPage > MAX_PER_PAGE)
      errors.push({ pointer: null, detail: `per_page must be at most ${MAX_PER_PAGE}` });
    if (errors.length > 0)
      throw new ProblemError('422-001', 'One or more fields failed validation.', { errors });

    const name = c.req.query('name')?.trim().toLowerCase() || undefined;
    const modelType = c.req.query('model_type')?.trim() || undefined;
    const all = deps.models.models;
    const matching = all.filter(
      (m) => (!name || m.name.toLowerCase().includes(name)) && (!modelType || m.model_type === modelType),
    );
    const models = matching.slice((page - 1) * perPage, page * perPage).map((m) => ({
      id: m.id,
      name: m.name,
      model_type: m.model_type,
      // Never the signing secret: only what the hosted search shows.
      webhooks: m.webhooks.map(({ id, name, url }) => ({ id, name, url })),
    }));
    return c.json({
      models,
      pagination: {
        per_page: perPage,
        page,
        total_items: matching.length,
        total_pages: Math.ceil(matching.length / perPage),
        // Our reading of the hosted field: the count before filters, null when nothing was filtered.
        total_items_unfiltered: name || modelType ? all.length : null,
      },
    });
  };
}

function positiveInteger(
  value: string | undefined,
  fallback: number,
  name: string,
  errors: ProblemItem[],
): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1) return n;
  errors.push({ pointer: null, detail: `${name} must be a positive integer, got "${value}"` });
  return fallback;
}
