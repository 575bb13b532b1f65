/**
 * The way back's deliveries in the review store (`deliveries`, `delivery_attempts`, written by the
 * outbox at confirmation, deliveries-on-confirm.ts): sent as jobs of the copies' background work (kind `delivery`,
 * background/README.md), their attempts recorded, listed and retried by admins.
 *
 * A job of the background work is taken with the table of leased jobs' one claim statement; before an
 * attempt the worker also takes the delivery's own lease (`lease_until`, `take`), which is what copies
 * of the release before send with: during a rolling upgrade an old and a new copy never attempt one
 * delivery at once, as two copies never did. The leases are times in the rows: a copy that stops
 * mid-attempt leaves them to expire, and any copy carries on after that.
 */
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { adoptJobs, scheduleJob } from '../background/job-table';
import type { ReviewDatabase } from '../db/open-database';
import type {
  DeliveryAttemptRow,
  DeliveryKind,
  DeliveryRow,
  DeliveryState,
  ReviewDatabaseSchema,
} from '../db/schema';

type Eb = ExpressionBuilder<ReviewDatabaseSchema, 'deliveries'>;

/** The way back's kind of background work; its key is the delivery's id. */
export const DELIVERY_KIND = 'delivery';

/** A delivery's job, due at `runAt` (rescheduled there if it has one); in `db`'s transaction if any. */
export async function scheduleDelivery(
  db: Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>,
  id: number,
  runAt: number,
  now: number,
): Promise<void> {
  await scheduleJob(db, { kind: DELIVERY_KIND, key: String(id), runAt }, now);
}

/** Pending, due, and held by no worker (or its lease ran out). */
const due = (now: number) => (eb: Eb) =>
  eb.and([
    eb('state', '=', 'pending'),
    eb('next_attempt_at', '<=', now),
    eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]),
  ]);

export type ListedDelivery = DeliveryRow & { file_name: string | null; integration_name: string | null };

export interface DeliveryFilters {
  state?: DeliveryState | undefined;
  kind?: DeliveryKind | undefined;
  documentId?: string | undefined;
  integrationId?: string | undefined;
  /** Deliveries with a smaller id (the previous page's last). */
  before?: number | undefined;
  limit: number;
}

/** What one attempt came to. */
export interface AttemptRecord {
  at: number;
  outcome: 'delivered' | 'status' | 'timeout' | 'network';
  status: number | null;
  error: string | null;
  durationMs: number;
  /** Pending again at this time, or finished (`delivered`, `failed`). */
  next: { state: 'pending'; at: number } | { state: 'delivered' | 'failed' };
}

export class DeliveryStore {
  constructor(private readonly store: ReviewDatabase) {}

  private get db() {
    return this.store.db;
  }

  /**
   * Takes delivery `id` until `leaseUntil` when it is pending, due and held by nobody (its job was
   * claimed); otherwise says when it is worth looking again, or that there is nothing to send.
   */
  async take(
    id: number,
    now: number,
    leaseUntil: number,
  ): Promise<{ delivery: DeliveryRow } | { later: number } | { gone: true }> {
    const delivery = await this.db
      .updateTable('deliveries')
      .set({ lease_until: leaseUntil, updated_at: now })
      .where('id', '=', id)
      .where(due(now))
      .returningAll()
      .executeTakeFirst();
    if (delivery !== undefined) return { delivery };
    const current = await this.db
      .selectFrom('deliveries')
      .select(['state', 'next_attempt_at', 'lease_until'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (current === undefined || current.state !== 'pending') return { gone: true };
    // Not due yet, or held by another copy (an older release's worker) until its lease runs out.
    return { later: Math.max(current.next_attempt_at, current.lease_until ?? 0) };
  }

  /** A job for every pending delivery that has none (written by an older copy, or before 0006). */
  async adopt(now: number): Promise<void> {
    await adoptJobs(
      this.db,
      DELIVERY_KIND,
      now,
      this.db
        .selectFrom('deliveries')
        .select([
          sql<string>`cast(id as text)`.as('key'),
          sql<string | null>`null`.as('scope'),
          'next_attempt_at as run_at',
        ])
        .where('state', '=', 'pending'),
    );
  }

  /**
   * Records an attempt made under the lease `leaseUntil`, and the delivery's new state. The attempt is
   * kept whatever happens; the state changes only while the lease is still this worker's.
   */
  async recordAttempt(delivery: DeliveryRow, leaseUntil: number, attempt: AttemptRecord): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('delivery_attempts')
        .values({
          delivery_id: delivery.id,
          at: attempt.at,
          outcome: attempt.outcome,
          status: attempt.status,
          error: attempt.error,
          duration_ms: Math.max(0, Math.round(attempt.durationMs)),
        })
        .execute();
      const { next } = attempt;
      const updated = await trx
        .updateTable('deliveries')
        .set({
          state: next.state,
          attempts: sql<number>`attempts + 1`,
          lease_until: null,
          next_attempt_at: next.state === 'pending' ? next.at : sql<number>`next_attempt_at`,
          last_status: attempt.status,
          last_error: attempt.error,
          delivered_at: next.state === 'delivered' ? attempt.at : null,
          updated_at: attempt.at,
        })
        .where('id', '=', delivery.id)
        .where('lease_until', '=', leaseUntil)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    });
  }

  /** Not sent at all (no URL any more, no upstream): failed, with why, until an admin retries it. */
  async refuse(delivery: DeliveryRow, leaseUntil: number, reason: string, now: number): Promise<void> {
    await this.db
      .updateTable('deliveries')
      .set({ state: 'failed', lease_until: null, last_status: null, last_error: reason, updated_at: now })
      .where('id', '=', delivery.id)
      .where('lease_until', '=', leaseUntil)
      .execute();
  }

  /** Gives the lease back without an attempt (shutting down mid-way): due again at once. */
  async release(delivery: DeliveryRow, leaseUntil: number): Promise<void> {
    await this.db
      .updateTable('deliveries')
      .set({ lease_until: null })
      .where('id', '=', delivery.id)
      .where('lease_until', '=', leaseUntil)
      .execute();
  }

  /**
   * An admin's retry: a failed delivery is pending again with a new round of attempts, due now; a
   * pending one is due now. A delivered one is left as it is (`delivered`).
   */
  async retry(
    id: number,
    now: number,
  ): Promise<{ ok: true; delivery: DeliveryRow } | { ok: false; reason: 'not_found' | 'delivered' }> {
    const delivery = await this.db.transaction().execute(async (trx) => {
      const retried = await trx
        .updateTable('deliveries')
        .set({
          state: 'pending',
          attempts: sql<number>`case when state = 'failed' then 0 else attempts end`,
          next_attempt_at: now,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('state', 'in', ['failed', 'pending'])
        .returningAll()
        .executeTakeFirst();
      // Its job, due now (a failed delivery's job had gone; a pending one's may wait for later).
      if (retried !== undefined) await scheduleDelivery(trx, retried.id, now, now);
      return retried;
    });
    if (delivery !== undefined) return { ok: true, delivery };
    const current = await this.find(id);
    return { ok: false, reason: current === undefined ? 'not_found' : 'delivered' };
  }

  async find(id: number): Promise<ListedDelivery | undefined> {
    return this.listed().where('deliveries.id', '=', id).executeTakeFirst();
  }

  async attemptsOf(id: number): Promise<DeliveryAttemptRow[]> {
    return this.db
      .selectFrom('delivery_attempts')
      .selectAll()
      .where('delivery_id', '=', id)
      .orderBy('id')
      .execute();
  }

  /** A document's deliveries, oldest first. */
  async forDocument(documentId: string): Promise<ListedDelivery[]> {
    return this.listed().where('deliveries.document_id', '=', documentId).orderBy('deliveries.id').execute();
  }

  /** One page, newest first, keyset-paged on the id. */
  async list(filters: DeliveryFilters): Promise<{ rows: ListedDelivery[]; next: number | null }> {
    let query = this.listed();
    if (filters.state !== undefined) query = query.where('deliveries.state', '=', filters.state);
    if (filters.kind !== undefined) query = query.where('deliveries.kind', '=', filters.kind);
    if (filters.documentId !== undefined)
      query = query.where('deliveries.document_id', '=', filters.documentId);
    if (filters.integrationId !== undefined)
      query = query.where('deliveries.integration_id', '=', filters.integrationId);
    if (filters.before !== undefined) query = query.where('deliveries.id', '<', filters.before);
    const rows = await query
      .orderBy('deliveries.id', 'desc')
      .limit(filters.limit + 1)
      .execute();
    const page = rows.slice(0, filters.limit);
    return { rows: page, next: rows.length > filters.limit ? (page.at(-1)?.id ?? null) : null };
  }

  async countByState(): Promise<Record<DeliveryState, number>> {
    const rows = await this.db
      .selectFrom('deliveries')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('state')
      .execute();
    const counts: Record<DeliveryState, number> = { pending: 0, delivered: 0, failed: 0 };
    for (const row of rows) counts[row.state] += Number(row.n);
    return counts;
  }

  private listed() {
    return this.db
      .selectFrom('deliveries')
      .leftJoin('documents', 'documents.id', 'deliveries.document_id')
      .leftJoin('integrations', 'integrations.id', 'deliveries.integration_id')
      .selectAll('deliveries')
      .select(['documents.file_name as file_name', 'integrations.name as integration_name']);
  }
}

/**
 * A confirmation's deliveries, pending and due at `now`, each with what it will send (compact JSON,
 * the exact bytes every attempt sends and signs); one per kind per confirmation, so one already
 * written is left as it is. In the confirming transaction. The ids of those written.
 */
export async function addDeliveries(
  db: Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>,
  confirmation: { documentId: string; integrationId: string | null; decidedAt: number },
  deliveries: readonly { kind: DeliveryKind; payload: unknown }[],
  now: number,
): Promise<{ id: number }[]> {
  return db
    .insertInto('deliveries')
    .values(
      deliveries.map(({ kind, payload }) => ({
        document_id: confirmation.documentId,
        integration_id: kind === 'webhook' ? confirmation.integrationId : null,
        kind,
        decided_at: confirmation.decidedAt,
        state: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        lease_until: null,
        last_status: null,
        last_error: null,
        payload_json: JSON.stringify(payload),
        created_at: now,
        updated_at: now,
        delivered_at: null,
      })),
    )
    .onConflict((conflict) => conflict.columns(['document_id', 'kind', 'decided_at']).doNothing())
    .returning('id')
    .execute();
}
