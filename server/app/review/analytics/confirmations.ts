/**
 * How documents of the period were decided, per day or week: confirmed automatically (at intake, by
 * the model's routing rules), confirmed by an operator, rejected; counted by decision time, from the
 * documents as they are now (a document reopened and decided again counts once, at its last decision).
 */
import { sql, type Kysely } from 'kysely';
import type { ConfirmationPeriod } from '@extraction-review/contract/review/analytics';
import type { ReviewDatabaseSchema } from '../db/schema';
import { bucketMs, confirmedAutomatically, decidedIn, periodsOf, type AnalyticsScope } from './scope';

export interface Confirmations {
  automatic: number;
  byOperator: number;
  rejected: number;
  automaticShare: number | null;
  periods: ConfirmationPeriod[];
}

interface Row {
  bucket: number | string;
  automatic: number | string | null;
  by_operator: number | string | null;
  rejected: number | string | null;
}

export async function confirmations(
  db: Kysely<ReviewDatabaseSchema>,
  scope: AnalyticsScope,
): Promise<Confirmations> {
  // The bucket is computed in a subquery and grouped on by name: PostgreSQL would not see two copies of
  // an expression with parameters as the same one.
  const { rows } = await sql<Row>`
    select t.bucket, sum(t.automatic) as automatic, sum(t.by_operator) as by_operator, sum(t.rejected) as rejected
    from (
      select
        cast((d.decided_at - ${scope.from}) / ${bucketMs(scope.bucket)} as integer) as bucket,
        case when ${confirmedAutomatically} then 1 else 0 end as automatic,
        case when d.state = 'confirmed' and not ${confirmedAutomatically} then 1 else 0 end as by_operator,
        case when d.state = 'rejected' then 1 else 0 end as rejected
      from documents d
      where ${decidedIn(scope)}
    ) t
    group by t.bucket`.execute(db);

  const byBucket = new Map(rows.map((row) => [Number(row.bucket), row]));
  const periods = periodsOf(scope).map((period, index): ConfirmationPeriod => {
    const row = byBucket.get(index);
    const automatic = Number(row?.automatic ?? 0);
    const byOperator = Number(row?.by_operator ?? 0);
    return {
      from: new Date(period.from).toISOString(),
      to: new Date(period.to).toISOString(),
      automatic,
      byOperator,
      rejected: Number(row?.rejected ?? 0),
      automaticShare: share(automatic, automatic + byOperator),
    };
  });
  const sum = (key: 'automatic' | 'byOperator' | 'rejected') => periods.reduce((n, p) => n + p[key], 0);
  const automatic = sum('automatic');
  const byOperator = sum('byOperator');
  return {
    automatic,
    byOperator,
    rejected: sum('rejected'),
    automaticShare: share(automatic, automatic + byOperator),
    periods,
  };
}

export function share(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}
