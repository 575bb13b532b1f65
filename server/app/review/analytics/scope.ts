/**
 * What every figure of "Where time goes" is counted over (docs/review-store.md, "Where time goes"):
 * a model (or all) and a period `[from, to)` of decision times, as SQL fragments on `documents d` that
 * read the same on SQLite and PostgreSQL. Times are integer milliseconds on both engines.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AnalyticsBucket } from '@extraction-review/contract/review/analytics';

export interface AnalyticsScope {
  /** The model id (v2) or product (`account/name/vN`); undefined for every model. */
  model?: string | undefined;
  from: number;
  /** Excluded. */
  to: number;
  bucket: AnalyticsBucket;
}

/** `d`'s model, when one is chosen (a fragment starting with `and`, or nothing). */
export function modelIs(scope: Pick<AnalyticsScope, 'model'>): RawBuilder<unknown> {
  return scope.model === undefined ? sql`` : sql` and d.model_key = ${scope.model}`;
}

/** `d` decided (confirmed or rejected) in the period, of the model. */
export function decidedIn(scope: AnalyticsScope): RawBuilder<boolean> {
  return sql<boolean>`d.state in ('confirmed', 'rejected') and d.decided_at >= ${scope.from} and d.decided_at < ${scope.to}${modelIs(scope)}`;
}

/**
 * `d` confirmed by nobody: at intake, by its model's routing rules. An operator's confirmation always
 * leaves a `confirmed` event, which tells it apart from an automatic one whose confirming operator was
 * since removed (`decided_by` set to null).
 */
export const confirmedAutomatically = sql<boolean>`(d.state = 'confirmed' and d.decided_by is null and not exists (select 1 from audit_events ae where ae.document_id = d.id and ae.kind = 'confirmed'))`;

/** `d` confirmed by an operator in the period, of the model: what corrections are counted over. */
export function confirmedByOperatorIn(scope: AnalyticsScope): RawBuilder<boolean> {
  return sql<boolean>`d.state = 'confirmed' and d.decided_at >= ${scope.from} and d.decided_at < ${scope.to}${modelIs(scope)} and not ${confirmedAutomatically}`;
}

/** The periods of a chart: `[from + i·size, …)`, the last one cut at `to`. */
export function periodsOf(scope: AnalyticsScope): { from: number; to: number }[] {
  const size = bucketMs(scope.bucket);
  const periods: { from: number; to: number }[] = [];
  for (let start = scope.from; start < scope.to; start += size)
    periods.push({ from: start, to: Math.min(start + size, scope.to) });
  return periods;
}

export function bucketMs(bucket: AnalyticsBucket): number {
  return bucket === 'day' ? 86_400_000 : 7 * 86_400_000;
}
