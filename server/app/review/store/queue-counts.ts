/**
 * The queue's counts per state, read from the counts the store's triggers keep (migration
 * 0018-queue-counts) instead of counting the documents: a handful of rows, whatever the queue's size.
 *
 * The kept counts are by stored state; readers see a document whose lease ran out, or whose
 * postponement ended, as `to_review` (model/queue-state.ts). Those are found by the two indexes of
 * their times (documents_lease, documents_postponed): a range as small as the documents that came back
 * and were not taken yet, never the table.
 *
 * On PostgreSQL the latest changes wait in `queue_count_changes` (inserts only: concurrent writers
 * never wait on one counter row); readers add them, and a read folds them into `queue_counts` at most
 * every `foldEveryMs` in this copy, one copy at a time (a transaction-scoped advisory lock; a copy that
 * finds it taken goes on without folding). A fold that fails changes nothing and is only logged: the
 * counts read stay right, only the rows to add grow until the next fold.
 */
import { sql, type Kysely } from 'kysely';
import { componentLogger } from '@extraction-review/server-kit/logger';
import type { DocumentState } from '../model/review-types';
import type { ReviewDatabase } from '../db/open-database';
import type { ReviewDatabaseSchema } from '../db/schema';

const logger = componentLogger('review store');

/** `hashtext('queue_counts')`'s role: any constant no other advisory lock of the store uses. */
const FOLD_LOCK = 0x71_75_65_75_65;
export const DEFAULT_FOLD_EVERY_MS = 10_000;

export type StateCounts = Record<DocumentState, number>;

export function noCounts(): StateCounts {
  return { processing: 0, failed: 0, to_review: 0, in_review: 0, confirmed: 0, rejected: 0, postponed: 0 };
}

export interface ModelStateCount {
  model: string;
  state: DocumentState;
  count: number;
}

export class QueueCounts {
  private foldedAt = Number.NEGATIVE_INFINITY;
  private folding: Promise<void> | undefined;

  constructor(
    private readonly store: ReviewDatabase,
    private readonly foldEveryMs = DEFAULT_FOLD_EVERY_MS,
  ) {}

  private get db(): Kysely<ReviewDatabaseSchema> {
    return this.store.db;
  }

  /** Documents per stored state and model. */
  async byModel(now: number): Promise<ModelStateCount[]> {
    await this.foldWhenDue(now);
    const rows = await sql<{ model_key: string; state: DocumentState; n: number | string }>`
      select model_key, state, sum(n) as n from (
        select model_key, state, n from queue_counts
        union all select model_key, state, n from queue_count_changes
      ) kept group by model_key, state`.execute(this.db);
    return rows.rows
      .map((row) => ({ model: row.model_key, state: row.state, count: Number(row.n) }))
      .filter((row) => row.count !== 0);
  }

  /** Documents per state as readers see them (expired leases and ended postponements waiting), of a model or all. */
  async byState(now: number, model?: string): Promise<StateCounts> {
    await this.foldWhenDue(now);
    const ofModel = model === undefined ? sql`` : sql`where model_key = ${model}`;
    const andModel = model === undefined ? sql`` : sql`and model_key = ${model}`;
    const [kept, cameBack] = await Promise.all([
      sql<{ state: DocumentState; n: number | string }>`
        select state, sum(n) as n from (
          select state, n from queue_counts ${ofModel}
          union all select state, n from queue_count_changes ${ofModel}
        ) kept group by state`.execute(this.db),
      sql<{ state: DocumentState; n: number | string }>`
        select 'in_review' as state, count(*) as n from documents
          where state = 'in_review' and lease_expires_at <= ${now} ${andModel}
        union all
        select 'postponed' as state, count(*) as n from documents
          where state = 'postponed' and postponed_until <= ${now} ${andModel}`.execute(this.db),
    ]);
    const counts = noCounts();
    for (const row of kept.rows) counts[row.state] += Number(row.n);
    for (const row of cameBack.rows) {
      const n = Number(row.n);
      counts[row.state] -= n;
      counts.to_review += n;
    }
    return counts;
  }

  /** Folds the waiting changes into the counts now (PostgreSQL; nothing waits on SQLite). */
  async fold(): Promise<void> {
    if (this.store.engine !== 'postgres') return;
    await this.db.transaction().execute(async (trx) => {
      const lock = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as locked`.execute(trx);
      if (lock.rows[0]?.locked !== true) return;
      await sql`
        with moved as (delete from queue_count_changes returning model_key, state, n)
        insert into queue_counts (model_key, state, n)
          select model_key, state, sum(n) from moved group by model_key, state
          on conflict (model_key, state) do update set n = queue_counts.n + excluded.n`.execute(trx);
    });
  }

  private async foldWhenDue(now: number): Promise<void> {
    if (this.store.engine !== 'postgres' || now - this.foldedAt < this.foldEveryMs) return;
    this.foldedAt = now;
    this.folding ??= this.fold()
      .catch((error: unknown) => {
        logger.warn(
          { err: error },
          'the queue counts could not fold their latest changes; the counts stay right',
        );
      })
      .finally(() => {
        this.folding = undefined;
      });
    await this.folding;
  }
}
