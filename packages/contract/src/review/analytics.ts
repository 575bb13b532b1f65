/**
 * "Where time goes" (`GET /api/review/analytics`, admins; docs/review-store.md "Where time goes"): the
 * query the server takes and the browser builds, and the figures it answers with, which the browser
 * parses. Each figure's exact meaning is in the docs; the short version is beside each property.
 */
import { z } from 'zod';
import { rangeEnd, rangeStart } from './exports';

export const DAY_MS = 86_400_000;
/** The period when the query names none: the last seven days. */
export const DEFAULT_PERIOD_MS = 7 * DAY_MS;
/** The longest period one request may ask for. */
export const MAX_PERIOD_MS = 400 * DAY_MS;
/** Periods up to this long are counted per day, longer ones per week (unless `bucket` says). */
export const DAILY_UP_TO_MS = 31 * DAY_MS;

/** A day (`2026-11-24`, the whole day in UTC) or an instant with its offset, as the exports take. */
const DayOrInstant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const AnalyticsBucket = z.enum(['day', 'week']);
export type AnalyticsBucket = z.infer<typeof AnalyticsBucket>;

/** The tables `?format=csv&table=…` answers: one per chart of the page, and the examples. */
export const AnalyticsTable = z.enum([
  'confirmations',
  'fields',
  'examples',
  'list-edits',
  'time',
  'operators',
  'queue',
]);
export type AnalyticsTable = z.infer<typeof AnalyticsTable>;

export const AnalyticsQuery = z
  .object({
    /** The model id (v2) or product (`account/name/vN`, v1); every model when left out. */
    model: z.string().trim().min(1).max(500).optional(),
    /** From this instant (a day: from its start); default `to` less seven days. */
    from: DayOrInstant.optional(),
    /** Up to this instant, excluded (a day counts whole); default now. */
    to: DayOrInstant.optional(),
    /** Per day or per week; default per day up to 31 days, per week beyond. */
    bucket: AnalyticsBucket.optional(),
    format: z.enum(['json', 'csv']).default('json'),
    /** With `format=csv`: which table. */
    table: AnalyticsTable.optional(),
  })
  .superRefine((query, context) => {
    const from = query.from === undefined ? undefined : rangeStart(query.from);
    const to = query.to === undefined ? undefined : rangeEnd(query.to);
    if (from !== undefined && to !== undefined) {
      if (from >= to)
        context.addIssue({ code: 'custom', message: '`from` must come before `to`.', path: ['to'] });
      else if (to - from > MAX_PERIOD_MS)
        context.addIssue({
          code: 'custom',
          message: `The period is at most ${MAX_PERIOD_MS / DAY_MS} days long.`,
          path: ['from'],
        });
    }
    if (query.format === 'csv' && query.table === undefined)
      context.addIssue({
        code: 'custom',
        message: `A CSV is one table: ${AnalyticsTable.options.join(', ')}.`,
        path: ['table'],
      });
  });
export type AnalyticsQuery = z.input<typeof AnalyticsQuery>;

/** The period a query asks for, in milliseconds: `[from, to)`, and how it is cut. */
export function analyticsPeriod(
  query: { from?: string | undefined; to?: string | undefined; bucket?: AnalyticsBucket | undefined },
  now: number,
): { from: number; to: number; bucket: AnalyticsBucket } {
  const to = query.to === undefined ? now : rangeEnd(query.to);
  const from = query.from === undefined ? to - DEFAULT_PERIOD_MS : rangeStart(query.from);
  return { from, to, bucket: query.bucket ?? (to - from <= DAILY_UP_TO_MS ? 'day' : 'week') };
}

/** The address of the figures (or of one table as CSV), as the app links to it. */
export function analyticsUrl(query: AnalyticsQuery): string {
  const params = new URLSearchParams();
  for (const key of ['model', 'from', 'to', 'bucket', 'format', 'table'] as const) {
    const value = query[key];
    if (value !== undefined && value !== '' && !(key === 'format' && value === 'json'))
      params.set(key, value);
  }
  const search = params.toString();
  return `/api/review/analytics${search === '' ? '' : `?${search}`}`;
}

const Count = z.int().min(0);
const Ms = z.number().min(0);
/** Between 0 and 1; null when there is nothing to divide by. */
const Share = z.number().min(0).max(1).nullable();

export const ConfirmationPeriod = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  /** Confirmed at intake by the model's routing rules, by nobody. */
  automatic: Count,
  /** Confirmed by an operator. */
  byOperator: Count,
  rejected: Count,
  /** automatic / (automatic + byOperator). */
  automaticShare: Share,
});
export type ConfirmationPeriod = z.infer<typeof ConfirmationPeriod>;

export const CorrectionExample = z.object({
  documentId: z.string(),
  fileName: z.string(),
  /** The field's own path (`line_items[2].quantity`). */
  path: z.string(),
  /** As extracted, as text; null for no value. */
  before: z.string().nullable(),
  /** As confirmed, as text; null for no value. */
  after: z.string().nullable(),
  confirmedAt: z.iso.datetime(),
});
export type CorrectionExample = z.infer<typeof CorrectionExample>;

export const CorrectedField = z.object({
  /** List items grouped: `line_items[].quantity`. */
  field: z.string(),
  /** Documents confirmed by an operator with this field corrected (at least one item, for a list). */
  documents: Count,
  /** Values corrected: one per document, or one per item of a list. */
  values: Count,
  /** documents / the documents confirmed by an operator. */
  share: Share,
  /** The latest few, newest first (for the first fields only). */
  examples: z.array(CorrectionExample),
});
export type CorrectedField = z.infer<typeof CorrectedField>;

export const ListEdit = z.object({
  /** The list, its items grouped: `line_items`, `taxes`. */
  list: z.string(),
  /** Documents in which items of it were added or removed. */
  documents: Count,
  added: Count,
  removed: Count,
});
export type ListEdit = z.infer<typeof ListEdit>;

export const OperatorTime = z.object({
  operatorId: z.string(),
  /** Null for an operator since removed. */
  name: z.string().nullable(),
  documents: Count,
  totalMs: Ms,
  medianMs: Ms,
});
export type OperatorTime = z.infer<typeof OperatorTime>;

export const RangeCount = z.object({
  label: z.string(),
  fromMs: Ms,
  /** Excluded; null for the open-ended last range. */
  toMs: Ms.nullable(),
  count: Count,
});
export type RangeCount = z.infer<typeof RangeCount>;

export const AnalyticsResponse = z.object({
  model: z.string().nullable(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  bucket: AnalyticsBucket,
  generatedAt: z.iso.datetime(),
  /** Every model with documents in the store, for the choice. */
  models: z.array(z.object({ apiVersion: z.enum(['v2', 'v1']), model: z.string() })),
  confirmations: z.object({
    automatic: Count,
    byOperator: Count,
    rejected: Count,
    automaticShare: Share,
    periods: z.array(ConfirmationPeriod),
  }),
  corrections: z.object({
    /** Documents confirmed by an operator in the period: what the shares are of. */
    documentsConfirmed: Count,
    /** Of those, the ones with at least one value corrected. */
    documentsCorrected: Count,
    /** Most corrected first (at most 25). */
    fields: z.array(CorrectedField),
    listEdits: z.array(ListEdit),
  }),
  time: z.object({
    /** Documents decided (confirmed, rejected) by an operator in the period. */
    documents: Count,
    totalMs: Ms,
    medianMs: Ms.nullable(),
    p90Ms: Ms.nullable(),
    /** How many documents took how long. */
    ranges: z.array(RangeCount),
    /** Most time first. */
    operators: z.array(OperatorTime),
  }),
  queue: z.object({
    /** Documents with a result and no decision, now (whatever the period). */
    total: Count,
    waiting: Count,
    inReview: Count,
    postponed: Count,
    medianMs: Ms.nullable(),
    p90Ms: Ms.nullable(),
    maxMs: Ms.nullable(),
    ages: z.array(RangeCount),
  }),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;
