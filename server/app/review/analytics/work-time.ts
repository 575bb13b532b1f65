/**
 * Time spent on the documents an operator decided (confirmed or rejected) in the period, read from
 * their timelines. A **session** runs from an operator taking the document (`taken`, or an admin's
 * `reassigned` to them) to the next event that ends or hands over the hold: `released`, a decision
 * (`confirmed`, `rejected`, `postponed`), `reassigned`, `reopened`, or another `taken`. A session its
 * operator left to expire (`lease_expired`, written when someone else takes the document) counts until
 * that operator's last correction in it (no time at all without one): the lease's running out says
 * when the page was closed no better than ten minutes either way. A document's time is the sum of its
 * sessions, whoever worked on it and whenever (sessions before the period included); an operator's,
 * the sum of their sessions on it.
 *
 * The sessions are paired with `lead()` over each document's events (a window function both engines
 * have); only the operator's share of a document is read back, medians are taken here.
 */
import { sql, type Kysely } from 'kysely';
import type { OperatorTime, RangeCount } from '@extraction-review/contract/review/analytics';
import type { Engine } from '../db/migrations';
import type { ReviewDatabaseSchema } from '../db/schema';
import { operatorNamesById } from '../store/operator-store';
import { countInRanges, percentile, WORK_RANGES } from './ranges';
import { decidedIn, type AnalyticsScope } from './scope';

export interface WorkTime {
  documents: number;
  totalMs: number;
  medianMs: number | null;
  p90Ms: number | null;
  ranges: RangeCount[];
  operators: OperatorTime[];
}

interface Row {
  operator_id: string;
  document_id: string;
  ms: number | string | null;
}

export async function workTime(
  db: Kysely<ReviewDatabaseSchema>,
  engine: Engine,
  scope: AnalyticsScope,
): Promise<WorkTime> {
  const assignee =
    engine === 'postgres' ? sql`(e.data_json::json ->> 'to')` : sql`json_extract(e.data_json, '$.to')`;
  const { rows } = await sql<Row>`
    with scoped as (
      select d.id from documents d where ${decidedIn(scope)}
    ),
    marks as (
      select e.id, e.document_id, e.kind, e.actor_id, e.at,
        case when e.kind = 'reassigned' then ${assignee} end as assignee,
        lead(e.id) over w as next_id,
        lead(e.kind) over w as next_kind,
        lead(e.at) over w as next_at
      from audit_events e
      join scoped s on s.id = e.document_id
      where e.kind in ('taken', 'reassigned', 'released', 'confirmed', 'rejected', 'postponed', 'lease_expired', 'reopened')
      window w as (partition by e.document_id order by e.id)
    ),
    spans as (
      select m.document_id,
        case when m.kind = 'taken' then m.actor_id else m.assignee end as operator_id,
        case when m.next_kind = 'lease_expired'
          then coalesce((
            select max(c.at) from audit_events c
            where c.document_id = m.document_id and c.kind = 'corrected' and c.id > m.id and c.id < m.next_id
          ), m.at)
          else m.next_at
        end - m.at as ms
      from marks m
      where m.kind in ('taken', 'reassigned') and m.next_id is not null
    )
    select s.operator_id, s.document_id, cast(sum(s.ms) as bigint) as ms
    from spans s
    where s.operator_id is not null
    group by s.operator_id, s.document_id`.execute(db);

  const perDocument = new Map<string, number>();
  const perOperator = new Map<string, number[]>();
  for (const row of rows) {
    const ms = Math.max(0, Number(row.ms ?? 0));
    perDocument.set(row.document_id, (perDocument.get(row.document_id) ?? 0) + ms);
    perOperator.set(row.operator_id, [...(perOperator.get(row.operator_id) ?? []), ms]);
  }
  const documentTimes = [...perDocument.values()].sort((a, b) => a - b);
  const names = await operatorNamesById(db, [...perOperator.keys()]);
  const operators = [...perOperator].map(([operatorId, times]): OperatorTime => {
    const sorted = [...times].sort((a, b) => a - b);
    return {
      operatorId,
      name: names.get(operatorId) ?? null,
      documents: sorted.length,
      totalMs: sum(sorted),
      medianMs: percentile(sorted, 0.5) ?? 0,
    };
  });
  operators.sort(
    (a, b) =>
      b.totalMs - a.totalMs ||
      (a.name ?? '').localeCompare(b.name ?? '') ||
      a.operatorId.localeCompare(b.operatorId),
  );
  return {
    documents: documentTimes.length,
    totalMs: sum(documentTimes),
    medianMs: percentile(documentTimes, 0.5),
    p90Ms: percentile(documentTimes, 0.9),
    ranges: countInRanges(documentTimes, WORK_RANGES),
    operators,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
