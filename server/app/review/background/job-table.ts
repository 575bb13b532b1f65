/**
 * The table of leased jobs (`background_jobs`, migration 0006): every statement the runner
 * (job-runner.ts) and the kinds' enqueueing use, the claim among them, written once.
 *
 * The claim is one conditional `UPDATE … WHERE id = (SELECT … ORDER BY run_at, id LIMIT 1 FOR UPDATE
 * SKIP LOCKED) … RETURNING`, as graphile-worker's `get_job` and pg-boss's `fetch` take work: no
 * read-then-write window, no lock outside the row. On SQLite the same statement without the locking
 * clause runs under its single writer. The lease is a time in the row (`lease_until`) with its holder
 * (`lease_owner`, one per runner and process run): a copy killed mid-job leaves it to run out, then any
 * copy takes the job; every later write of the job is conditional on the lease still being the
 * writer's, so a copy that comes back late changes nothing.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import type { BackgroundJobRow, ReviewDatabaseSchema } from '../db/schema';

type Eb = ExpressionBuilder<ReviewDatabaseSchema, 'background_jobs'>;
type Db = Kysely<ReviewDatabaseSchema> | Transaction<ReviewDatabaseSchema>;

export type { BackgroundJobRow };

/** What to claim: one kind, in the scopes this copy serves (a job of no scope is anyone's). */
export interface ClaimRequest {
  kind: string;
  /** Undefined: every scope. */
  scopes?: readonly string[] | undefined;
  owner: string;
  now: number;
  leaseMs: number;
}

/** A job taken: its row, and the lease every write about it must name. */
export interface LeasedJob extends BackgroundJobRow {
  lease_owner: string;
  lease_until: number;
}

/** A job to be run at `runAt` (and, already there, rescheduled to it). */
export interface JobToSchedule {
  kind: string;
  key: string;
  scope?: string | null | undefined;
  payload?: unknown;
  runAt: number;
}

/** Pending, due, in a scope served, and held by nobody (or its lease ran out). */
const due = (request: ClaimRequest) => (eb: Eb) =>
  eb.and([
    eb('kind', '=', request.kind),
    eb('state', '=', 'pending'),
    eb('run_at', '<=', request.now),
    eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', request.now)]),
    ...(request.scopes === undefined
      ? []
      : [
          eb.or([
            eb('scope', 'is', null),
            ...(request.scopes.length > 0 ? [eb('scope', 'in', request.scopes)] : []),
          ]),
        ]),
  ]);

export class JobTable {
  constructor(private readonly store: ReviewDatabase) {}

  /** Takes the job of `kind` due longest, for `leaseMs`; undefined when none is due. */
  async claim(request: ClaimRequest): Promise<LeasedJob | undefined> {
    const postgres = this.store.engine === 'postgres';
    const job = await this.store.db
      .updateTable('background_jobs')
      .set({
        lease_owner: request.owner,
        lease_until: request.now + request.leaseMs,
        updated_at: request.now,
      })
      .where('id', '=', (eb) => {
        const next = eb
          .selectFrom('background_jobs')
          .select('id')
          .where(due(request))
          .orderBy('run_at')
          .orderBy('id')
          .limit(1);
        return postgres ? next.forUpdate().skipLocked() : next;
      })
      // Checked again on the row itself (PostgreSQL re-evaluates a row changed since the subquery).
      .where(due(request))
      .returningAll()
      .executeTakeFirst();
    return job as LeasedJob | undefined;
  }

  /** Done: the job goes. Only while the lease is still `job`'s. */
  async finish(job: LeasedJob): Promise<void> {
    await this.store.db.deleteFrom('background_jobs').where(held(job)).execute();
  }

  /** Due again at `runAt` (a schedule of the handler's, or a stop: at once). Only under the lease. */
  async again(job: LeasedJob, runAt: number, now: number, payload?: unknown): Promise<void> {
    await this.store.db
      .updateTable('background_jobs')
      .set({
        run_at: runAt,
        attempts: 0,
        last_error: null,
        lease_owner: null,
        lease_until: null,
        updated_at: now,
        ...(payload === undefined ? {} : { payload_json: JSON.stringify(payload) }),
      })
      .where(held(job))
      .execute();
  }

  /** A failed run: retried at `retryAt`, or kept as `failed` when `giveUp`. Only under the lease. */
  async fail(
    job: LeasedJob,
    error: string,
    now: number,
    next: { retryAt: number } | 'give-up',
  ): Promise<void> {
    await this.store.db
      .updateTable('background_jobs')
      .set({
        attempts: sql<number>`attempts + 1`,
        last_error: error,
        lease_owner: null,
        lease_until: null,
        updated_at: now,
        ...(next === 'give-up' ? { state: 'failed' as const } : { run_at: next.retryAt }),
      })
      .where(held(job))
      .execute();
  }

  /** Gives one job back (its outcome could not be written): due again when it was due. */
  async release(job: LeasedJob): Promise<void> {
    await this.store.db
      .updateTable('background_jobs')
      .set({ lease_owner: null, lease_until: null })
      .where(held(job))
      .execute();
  }

  /** Gives back every job `owner` holds (a runner stopping): each due again when it was due. */
  async releaseAll(owner: string): Promise<number> {
    const released = await this.store.db
      .updateTable('background_jobs')
      .set({ lease_owner: null, lease_until: null })
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(released.numUpdatedRows);
  }
}

/**
 * Enqueues a job, or reschedules it to `runAt` when one of its kind and key is there (pending again,
 * its failures forgotten). `db` may be a transaction: the job is committed with what it is about.
 */
export async function scheduleJob(db: Db, job: JobToSchedule, now: number): Promise<void> {
  await db
    .insertInto('background_jobs')
    .values(newJobRow(job, now))
    .onConflict((conflict) =>
      conflict.columns(['kind', 'key']).doUpdateSet((eb) => ({
        run_at: eb.ref('excluded.run_at'),
        payload_json: eb.ref('excluded.payload_json'),
        scope: eb.ref('excluded.scope'),
        state: 'pending',
        attempts: 0,
        updated_at: now,
      })),
    )
    .execute();
}

/**
 * Enqueues a job unless one of its kind and key is there, which is left as it is (its lease, its
 * schedule): a standing job such as the retention purge's, whose row is only a lease.
 */
export async function ensureJob(db: Db, job: JobToSchedule, now: number): Promise<void> {
  await db
    .insertInto('background_jobs')
    .values(newJobRow(job, now))
    .onConflict((conflict) => conflict.columns(['kind', 'key']).doNothing())
    .execute();
}

function newJobRow(job: JobToSchedule, now: number) {
  return {
    kind: job.kind,
    key: job.key,
    scope: job.scope ?? null,
    payload_json: JSON.stringify(job.payload ?? {}),
    state: 'pending' as const,
    run_at: job.runAt,
    attempts: 0,
    lease_owner: null,
    lease_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Adoption (a kind's `adopt`): a job of `kind` for each of `candidates` (`key`, `scope`, `run_at`:
 * the work a domain table says is pending) that has none. Idempotent, and safe with copies adopting
 * at once: a job already there is left as it is, and the rows go in one order (by key), so concurrent
 * adoptions wait for each other rather than deadlock.
 */
export async function adoptJobs(
  db: Db,
  kind: string,
  now: number,
  candidates: Expression<{ key: string; scope: string | null; run_at: number }>,
): Promise<void> {
  // `cast(… as bigint)`: PostgreSQL types a bare parameter in a select list as text.
  await sql`
    insert into background_jobs
      (kind, "key", scope, payload_json, state, run_at, attempts, created_at, updated_at)
    select ${kind}, c."key", c.scope, '{}', 'pending', c.run_at, 0, cast(${now} as bigint), cast(${now} as bigint)
    from (${candidates}) as c
    where not exists (select 1 from background_jobs j where j.kind = ${kind} and j."key" = c."key")
    order by c."key"
    on conflict (kind, "key") do nothing`.execute(db);
}

/** The row is still held under `job`'s lease. */
function held(job: LeasedJob) {
  return (eb: Eb) =>
    eb.and([
      eb('id', '=', job.id),
      eb('lease_owner', '=', job.lease_owner),
      eb('lease_until', '=', job.lease_until),
    ]);
}
