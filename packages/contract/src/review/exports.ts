/**
 * Exports of confirmed documents (`GET /api/exports/confirmed`, admins; docs/gateway.md "Exports"):
 * the query the server takes and the browser builds links with, and one JSON line's shape.
 */
import { z } from 'zod';

export const ExportFormat = z.enum(['jsonl', 'csv']);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** A day (`2026-11-24`, the whole day in UTC) or an instant with its offset. */
const DayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const ExportQuery = z
  .object({
    /** The model id (v2) or product (`account/name/vN`, v1). */
    model: z.string().trim().min(1).max(500),
    format: ExportFormat.default('jsonl'),
    /** Confirmed at or after this. */
    from: DayOrInstant.optional(),
    /** Confirmed before this; a day includes that whole day. */
    to: DayOrInstant.optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || rangeStart(q.from) < rangeEnd(q.to), {
    message: '`from` must come before `to`.',
    path: ['to'],
  });
export type ExportQuery = z.input<typeof ExportQuery>;

/** The first millisecond a `from` bound includes. */
export function rangeStart(value: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

/** The first millisecond a `to` bound excludes: a day counts whole. */
export function rangeEnd(value: string): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? Date.parse(`${value}T00:00:00Z`) + 86_400_000
    : Date.parse(value);
}

/** The export's address, as the app links to it. */
export function exportUrl(query: ExportQuery): string {
  const params = new URLSearchParams();
  params.set('model', query.model);
  params.set('format', query.format ?? 'jsonl');
  if (query.from !== undefined && query.from !== '') params.set('from', query.from);
  if (query.to !== undefined && query.to !== '') params.set('to', query.to);
  return `/api/exports/confirmed?${params.toString()}`;
}

/** How many confirmed documents an export of these filters holds (`GET /api/exports/confirmed/count`). */
export const ExportCount = z.object({ count: z.number().int().nonnegative() });
export type ExportCount = z.infer<typeof ExportCount>;

/** The count's address, for the filters of an export (its format does not change the count). */
export function exportCountUrl(query: ExportQuery): string {
  return exportUrl(query).replace('/api/exports/confirmed?', '/api/exports/confirmed/count?');
}
