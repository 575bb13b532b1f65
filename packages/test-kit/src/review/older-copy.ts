/**
 * For the rolling-upgrade tests: what a copy of the release before migration 0006 does to the store,
 * statement for statement (its job follower's and delivery worker's claims and give-backs, as they were
 * at commit 30fe6b7), so a test can run it beside the newer code on one database.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { ReviewDatabase } from '@extraction-review/app-server/review/db/open-database';
import type {
  DeliveryRow,
  DocumentRow,
  ReviewDatabaseSchema,
} from '@extraction-review/app-server/review/db/schema';

const FIRST_CHECK_MS = 1_500;
const dueAt = sql<number>`coalesce(next_check_at, created_at + ${FIRST_CHECK_MS})`;

export class OlderCopy {
  constructor(
    private readonly database: ReviewDatabase,
    readonly holder = 'older-copy',
  ) {}

  /** The older follower's take-next: the document due longest that no copy holds. */
  async claimDocument(now: number, leaseMs: number): Promise<DocumentRow | undefined> {
    const postgres = this.database.engine === 'postgres';
    const due = (eb: ExpressionBuilder<ReviewDatabaseSchema, 'documents'>) =>
      eb.and([
        eb('state', '=', 'processing'),
        eb('upstream_job_id', 'is not', null),
        eb(dueAt, '<=', now),
        eb.or([eb('follow_holder', 'is', null), eb('follow_until', '<=', now)]),
      ]);
    return this.database.db
      .updateTable('documents')
      .set({ follow_holder: this.holder, follow_until: now + leaseMs })
      .where('id', '=', (eb) => {
        const next = eb.selectFrom('documents').select('id').where(due).orderBy(dueAt).orderBy('id').limit(1);
        return postgres ? next.forUpdate().skipLocked() : next;
      })
      .where(due)
      .returningAll()
      .executeTakeFirst();
  }

  /** The older follower's give-back after a check, with the next due time. */
  async letGoDocument(document: DocumentRow, nextCheckAt: number, intervalMs: number): Promise<void> {
    await this.database.db
      .updateTable('documents')
      .set({
        next_check_at: nextCheckAt,
        check_interval_ms: intervalMs,
        follow_holder: null,
        follow_until: null,
      })
      .where('id', '=', document.id)
      .where('follow_holder', '=', this.holder)
      .where('follow_until', '=', document.follow_until)
      .execute();
  }

  /** The older worker's take-next: the delivery due longest that no copy holds. */
  async claimDelivery(now: number, leaseMs: number): Promise<DeliveryRow | undefined> {
    const postgres = this.database.engine === 'postgres';
    const due = (eb: ExpressionBuilder<ReviewDatabaseSchema, 'deliveries'>) =>
      eb.and([
        eb('state', '=', 'pending'),
        eb('next_attempt_at', '<=', now),
        eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]),
      ]);
    return this.database.db
      .updateTable('deliveries')
      .set({ lease_until: now + leaseMs, updated_at: now })
      .where('id', '=', (eb) => {
        const next = eb
          .selectFrom('deliveries')
          .select('id')
          .where(due)
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(1);
        return postgres ? next.forUpdate().skipLocked() : next;
      })
      .where(due)
      .returningAll()
      .executeTakeFirst();
  }
}
