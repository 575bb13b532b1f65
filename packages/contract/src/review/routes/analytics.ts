/** "Where time goes", for admins (docs/review-store.md; the handler: server/app/review/http/analytics-routes.ts). */
import type { z } from 'zod';
import { AnalyticsQuery, AnalyticsResponse, AnalyticsTable } from '../analytics';
import { declareRoute } from './declare';

export const getAnalytics = declareRoute({
  operationId: 'getAnalytics',
  method: 'get',
  path: '/api/review/analytics',
  tag: 'review',
  summary: 'Where time goes (admins)',
  description:
    'Per model and period: the share of documents confirmed automatically, the fields operators correct most (before → after examples), the time spent per document and per operator, and the queue’s age now. Each figure is defined in docs/review-store.md, "Where time goes".',
  access: 'admin',
  query: AnalyticsQuery,
  queryDescriptions: {
    model: 'The model id (v2) or product `account/name/vN` (v1); every model when left out.',
    from: 'From: a day (`2026-11-24`, from its start, UTC) or an instant with its offset; default `to` less 7 days.',
    to: 'Up to (excluded): a day (counted whole) or an instant with its offset; default now. At most 400 days after `from`.',
    bucket:
      'Confirmations per `day` or `week`, counted from `from`; default per day up to 31 days, per week beyond.',
    format: '`json` (default), or `csv` for one table (`table`).',
    table: `With \`format=csv\`: the table, one per chart (${AnalyticsTable.options.join(', ')}).`,
  } satisfies Record<keyof z.input<typeof AnalyticsQuery>, string>,
  responses: {
    200: {
      description:
        'The figures (JSON), or with `format=csv` one table as an attachment (UTF-8 with a BOM, CRLF).',
      schema: AnalyticsResponse,
      content: {
        'text/csv': {
          schema: {
            type: 'string',
            description: 'One table: a header line, then a row per bar of its chart.',
          },
        },
      },
    },
  },
  notes: {
    '422-008':
      'the query does not fit: `errors[]` point at its parameters (`#/to` before `from`, `#/table` missing with `format=csv`)',
  },
});

export const analyticsRoutes = [getAnalytics] as const;
