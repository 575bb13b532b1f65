/** Exports of confirmed documents, for admins (docs/gateway.md, "Exports"; the handler: server/app/review/http/export-routes.ts). */
import type { z } from 'zod';
import { ExportCount, ExportQuery } from '../exports';
import { declareRoute } from './declare';

export const exportConfirmed = declareRoute({
  operationId: 'exportConfirmed',
  method: 'get',
  path: '/api/exports/confirmed',
  tag: 'review',
  summary: 'Export confirmed documents (admins)',
  description:
    'The confirmed documents of one model, in order of confirmation, with their validated values, streamed (docs/gateway.md, "Exports").',
  access: 'admin',
  query: ExportQuery,
  queryDescriptions: {
    model: 'The model id (v2) or product `account/name/vN` (v1).',
    format: '`jsonl` (default): a JSON object per document; `csv`: a row per line item.',
    from: 'Confirmed at or after: a day (`2026-11-24`, from its start, UTC) or an instant with its offset.',
    to: 'Confirmed before: a day (counted whole) or an instant with its offset; after `from`.',
  } satisfies Record<keyof z.input<typeof ExportQuery>, string>,
  responses: {
    200: {
      description: 'An attachment, streamed: JSON lines, or CSV (UTF-8 with a BOM, CRLF).',
      headers: {
        'Content-Disposition': {
          description: '`attachment; filename="confirmed-<model>-<date>.<format>"`.',
          schema: { type: 'string' },
        },
      },
      content: {
        'application/x-ndjson': {
          schema: {
            type: 'string',
            description:
              'One object per line: document_id, api_version, model, file_name, alias, integration, confirmed_at, confirmed_by, automatic, override_reason (why it was confirmed with business rules failing, else null), fields (the v2 API’s shape).',
          },
        },
        'text/csv': {
          schema: {
            type: 'string',
            description:
              'Columns: document_id, file_name, model, integration, confirmed_at, confirmed_by, automatic, override_reason, then every field column (`line_items.description` …); a row per line item.',
          },
        },
      },
    },
  },
  problems: ['404-019'],
  notes: { '422-008': 'the query does not fit: `errors[]` point at its parameters (`#/from`)' },
});

export const countExport = declareRoute({
  operationId: 'countExport',
  method: 'get',
  path: '/api/exports/confirmed/count',
  tag: 'review',
  summary: 'Count an export’s documents (admins)',
  description:
    'How many confirmed documents the export of these filters holds, so the app says so before the download (`format` changes nothing).',
  access: 'admin',
  query: ExportQuery,
  queryDescriptions: {
    model: 'The model id (v2) or product `account/name/vN` (v1).',
    format: 'Ignored: the count is the same for both formats.',
    from: 'Confirmed at or after: a day (`2026-11-24`, from its start, UTC) or an instant with its offset.',
    to: 'Confirmed before: a day (counted whole) or an instant with its offset; after `from`.',
  } satisfies Record<keyof z.input<typeof ExportQuery>, string>,
  responses: { 200: { description: 'The number of documents.', schema: ExportCount } },
  notes: { '422-008': 'the query does not fit: `errors[]` point at its parameters (`#/from`)' },
});

export const exportRoutes = [exportConfirmed, countExport] as const;
