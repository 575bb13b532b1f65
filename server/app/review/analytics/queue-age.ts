/**
 * The queue's age now (whatever the period): every document with a result and no decision yet
 * (`to_review`, `in_review`, `postponed`) of the model, aged from its result's arrival (`ready_at`).
 * Counted per range of ages in one statement; the median and 90th percentile (nearest rank) read as
 * the row at that rank, so no engine-specific percentile function is needed.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { RangeCount } from '@extraction-review/contract/review/analytics';
import type { ReviewDatabaseSchema } from '../db/schema';
import { AGE_RANGES, percentileRank } from './ranges';
import { modelIs } from './scope';

export interface QueueAge {
  total: number;
  waiting: number;
  inReview: number;
  postponed: number;
  medianMs: number | null;
  p90Ms: number | null;
  maxMs: number | null;
  ages: RangeCount[];
}

type Num = number | string | null;

export async function queueAge(
  db: Kysely<ReviewDatabaseSchema>,
  model: string | undefined,
  now: number,
): Promise<QueueAge> {
  const undecided = sql`d.state in ('to_review', 'in_review', 'postponed') and d.ready_at is not null${modelIs({ model })}`;
  const inRange = AGE_RANGES.map(
    (range, index) =>
      sql`sum(case when ${ageBetween(now, range.fromMs, range.toMs)} then 1 else 0 end) as ${sql.ref(`r${index}`)}`,
  );
  const { rows } = await sql<Record<string, Num>>`
    select count(*) as total,
      sum(case when d.state = 'to_review' or (d.state = 'in_review' and d.lease_expires_at <= ${now}) then 1 else 0 end) as waiting,
      sum(case when d.state = 'in_review' and d.lease_expires_at > ${now} then 1 else 0 end) as in_review,
      sum(case when d.state = 'postponed' then 1 else 0 end) as postponed,
      min(d.ready_at) as oldest,
      ${sql.join(inRange)}
    from documents d
    where ${undecided}`.execute(db);
  const row = rows[0] ?? {};
  const total = Number(row.total ?? 0);
  const ageAtRank = async (rank: number): Promise<number | null> => {
    if (rank === 0) return null;
    // Ages ascending are arrival times descending.
    const { rows: at } = await sql<{ ready_at: Num }>`
      select d.ready_at from documents d where ${undecided}
      order by d.ready_at desc, d.id limit 1 offset ${rank - 1}`.execute(db);
    return at[0] === undefined ? null : Math.max(0, now - Number(at[0].ready_at));
  };
  return {
    total,
    waiting: Number(row.waiting ?? 0),
    inReview: Number(row.in_review ?? 0),
    postponed: Number(row.postponed ?? 0),
    medianMs: await ageAtRank(percentileRank(0.5, total)),
    p90Ms: await ageAtRank(percentileRank(0.9, total)),
    maxMs: row.oldest === null || row.oldest === undefined ? null : Math.max(0, now - Number(row.oldest)),
    ages: AGE_RANGES.map((range, index) => ({ ...range, count: Number(row[`r${index}`] ?? 0) })),
  };
}

/** `d`'s age (now − ready_at, a future time counting as 0) in `[fromMs, toMs)`. */
function ageBetween(now: number, fromMs: number, toMs: number | null): RawBuilder<boolean> {
  const young = fromMs === 0 ? sql`` : sql` and d.ready_at <= ${now - fromMs}`;
  return toMs === null
    ? sql<boolean>`d.ready_at <= ${now - fromMs}`
    : sql<boolean>`d.ready_at > ${now - toMs}${young}`;
}
