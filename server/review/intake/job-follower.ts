/**
 * Follows the upstream jobs of documents still `processing` in the review store, and brings each
 * result in: a processed v2 job's inference (or a completed v1 job's document) is fetched with the
 * server's key and stored, and the document enters the queue (`to_review`; or, sent by an
 * integration, confirmed on its own when its model's routing rules say so, routing/route-result.ts);
 * a failed job marks it `failed` with the upstream's problem.
 *
 * It polls as the official clients do (first after ~1.5 s, then backing off ×1.5 to 30 s, given up
 * after 15 min), and that schedule lives in the document's row (`next_check_at`,
 * `check_interval_ms`), not in memory. App-server copies sharing one PostgreSQL follow each job from
 * one copy at a time (issue 19): a copy takes a due job under a lease in its row (`follow_holder`,
 * `follow_until`) with one conditional `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1)
 * RETURNING`, as the queue's take-next and the way back's claim do, checks it, writes the next due
 * time and gives the lease back. So each processing job is polled about as often with three copies as
 * with one; a copy that dies mid-check leaves its lease to run out (2 min) and another carries on; a
 * copy that stops gives its leases back at once.
 *
 * A copy follows only documents its own upstream took (`upstream_id`, upstream-identity.ts) and the
 * documents kept before upstreams were recorded (`upstream_id` null). A 404 fails a document only
 * when it comes from the upstream that took it; for an old document it may come from another upstream
 * (each copy with its own embedded reference service), so it is retried until the 15 minutes are up.
 *
 * The loop never ends the process (background-loop.ts): a pass that fails (the database away) is told
 * once per kind of failure and retried with back-off.
 */
import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Upstream } from '../../app/upstream/upstream-client';
import { V1Upstream } from '../../app/upstream/v1-upstream';
import { V2Upstream } from '../../app/upstream/v2-upstream';
import { BackgroundLoop, FailureLog } from '../background/background-loop';
import type { DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import type { ReviewContext } from '../http/review-context';
import { setRoutedResult } from '../routing/route-result';
import { countFields } from './count-fields';
import { upstreamIdentity } from './upstream-identity';

type Eb = ExpressionBuilder<ReviewDatabaseSchema, 'documents'>;

export const FIRST_CHECK_MS = 1_500;
export const MAX_INTERVAL_MS = 30_000;
const BACKOFF = 1.5;
const TICK_MS = 1_000;
/** Jobs checked in one pass at most: a pass ends, and the next begins, within a bounded time. */
const BATCH = 50;
/** A job still unfinished this long after its document was received is given up as failed. */
export const GIVE_UP_MS = 15 * 60 * 1000;
const REQUEST_TIMEOUT_MS = 30_000;
/** A check is at most two requests and a write: the lease outlasts them. */
export const FOLLOW_LEASE_MS = 2 * REQUEST_TIMEOUT_MS + 60_000;

export interface FollowerDeps {
  review: Pick<ReviewContext, 'queue' | 'database' | 'now'>;
  upstream: { v2?: Upstream | undefined; v1?: Upstream | undefined };
  /** How long a job taken stays this copy's. Default 2 min. */
  leaseMs?: number;
  /** The pause between passes. Default 1 s. */
  tickMs?: number;
  /** Where the loop's failures are told (once per kind). Default console.warn. */
  log?: (message: string) => void;
}

/** When a document's job is due: its row's time, or 1.5 s after it was received. */
const dueAt = sql<number>`coalesce(next_check_at, created_at + ${FIRST_CHECK_MS})`;

export class JobFollower {
  /** This follower's name in the leases it takes: one per process run, never reused. */
  readonly holder = randomUUID();
  private readonly identities: { version: 'v2' | 'v1'; identity: string }[];
  private readonly loop: BackgroundLoop;
  private readonly checks: FailureLog;
  private stopping = new AbortController();

  constructor(private readonly deps: FollowerDeps) {
    this.identities = (['v2', 'v1'] as const).flatMap((version) => {
      const upstream = deps.upstream[version];
      return upstream === undefined
        ? []
        : [{ version, identity: upstream.identity ?? upstreamIdentity(upstream.url) }];
    });
    const log = deps.log ?? console.warn;
    this.loop = new BackgroundLoop({
      name: '[review intake] the job follower',
      run: () => this.tick(),
      intervalMs: deps.tickMs ?? TICK_MS,
      log,
    });
    this.checks = new FailureLog('[review intake] checking a job upstream', log);
  }

  private get leaseMs(): number {
    return this.deps.leaseMs ?? FOLLOW_LEASE_MS;
  }

  start(): void {
    this.stopping = new AbortController();
    this.loop.start();
  }

  /**
   * Stops: a check in flight is cut short, and every job this follower holds is given back, due at
   * once for another copy. Before closing the store.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
    await this.release();
  }

  /**
   * A new document. Its row already says when its job is first due (1.5 s after it was received), so
   * nothing more is needed; kept for the intake's hook.
   */
  follow(documentId: string): void {
    void documentId;
  }

  /** One pass, never rejecting (its failure told as the loop's would be). Exposed for tests. */
  async runOnce(): Promise<boolean> {
    return this.loop.runOnce();
  }

  /** One pass: every job due now that no other copy holds, one at a time. Exposed for tests. */
  async tick(): Promise<void> {
    if (this.identities.length === 0) return;
    for (let n = 0; n < BATCH && !this.stopping.signal.aborted; n++) {
      const now = this.deps.review.now();
      const document = await this.claim(now);
      if (document === undefined) return;
      await this.handle(document, now + this.leaseMs);
    }
  }

  /** The documents this copy follows: its upstreams' (per API version) and those of no recorded upstream. */
  private ours(eb: Eb) {
    return eb.or(
      this.identities.map(({ version, identity }) =>
        eb.and([
          eb('api_version', '=', version),
          eb.or([eb('upstream_id', 'is', null), eb('upstream_id', '=', identity)]),
        ]),
      ),
    );
  }

  /** Processing, due, ours, and held by no copy (or its lease ran out). */
  private due(now: number) {
    return (eb: Eb) =>
      eb.and([
        eb('state', '=', 'processing'),
        eb('upstream_job_id', 'is not', null),
        eb(dueAt, '<=', now),
        eb.or([eb('follow_holder', 'is', null), eb('follow_until', '<=', now)]),
        this.ours(eb),
      ]);
  }

  /** Takes the job due longest, under a lease; undefined when none is due. */
  private async claim(now: number): Promise<DocumentRow | undefined> {
    const { database } = this.deps.review;
    const postgres = database.engine === 'postgres';
    return (
      database.db
        .updateTable('documents')
        .set({ follow_holder: this.holder, follow_until: now + this.leaseMs })
        .where('id', '=', (eb) => {
          const next = eb
            .selectFrom('documents')
            .select('id')
            .where(this.due(now))
            .orderBy(dueAt)
            .orderBy('id')
            .limit(1);
          return postgres ? next.forUpdate().skipLocked() : next;
        })
        // Checked again on the row itself (PostgreSQL re-evaluates a row changed since the subquery).
        .where(this.due(now))
        .returningAll()
        .executeTakeFirst()
    );
  }

  /** Checks one job taken under the lease `followUntil`, then schedules it or lets it go. */
  private async handle(document: DocumentRow, followUntil: number): Promise<void> {
    const { review } = this.deps;
    let settled = false;
    try {
      settled = await this.check(document);
      this.checks.recovered();
    } catch (error) {
      if (this.stopping.signal.aborted) {
        // Cut short by stop(): due again at once, for whichever copy looks next.
        await this.letGo(document, followUntil, {});
        return;
      }
      this.checks.report(error, `job ${document.upstream_job_id ?? ''}`);
    }
    const now = review.now();
    if (!settled && now - document.created_at > GIVE_UP_MS) {
      await review.queue.setFailed(
        document.id,
        JSON.stringify({
          title: 'Result never came',
          detail: 'The upstream job did not finish in 15 minutes.',
        }),
        now,
      );
      settled = true;
    }
    if (settled) {
      await this.letGo(document, followUntil, {});
      return;
    }
    // Whole milliseconds: the row's columns are integers.
    const interval = Math.round(
      Math.min((document.check_interval_ms ?? FIRST_CHECK_MS) * BACKOFF, MAX_INTERVAL_MS),
    );
    await this.letGo(document, followUntil, { next_check_at: now + interval, check_interval_ms: interval });
  }

  /**
   * Gives a job's lease back, with its next due time. Only while the lease is still ours: a copy
   * that took it over after our lease ran out keeps its own schedule.
   */
  private async letGo(
    document: DocumentRow,
    followUntil: number,
    schedule: { next_check_at?: number; check_interval_ms?: number },
  ): Promise<void> {
    await this.deps.review.database.db
      .updateTable('documents')
      .set({ ...schedule, follow_holder: null, follow_until: null })
      .where('id', '=', document.id)
      .where('follow_holder', '=', this.holder)
      .where('follow_until', '=', followUntil)
      .execute();
  }

  /** Every lease this follower holds, given back (stop()). A failure is told, not thrown. */
  private async release(): Promise<void> {
    try {
      await this.deps.review.database.db
        .updateTable('documents')
        .set({ follow_holder: null, follow_until: null })
        .where('follow_holder', '=', this.holder)
        .execute();
    } catch (error) {
      (this.deps.log ?? console.warn)(
        `[review intake] the job follower could not give its jobs back (they pass to another copy when ` +
          `their leases run out): ${describe(error)}`,
      );
    }
  }

  /** Whether the document left `processing` (its result stored, or its failure). */
  private async check(document: DocumentRow): Promise<boolean> {
    return document.api_version === 'v2' ? this.checkV2(document) : this.checkV1(document);
  }

  private upstream(version: 'v2' | 'v1'): Upstream {
    const upstream = this.deps.upstream[version];
    if (upstream === undefined) throw new Error(`no ${version} upstream`);
    return upstream;
  }

  private async checkV2(document: DocumentRow): Promise<boolean> {
    const { review } = this.deps;
    const v2 = new V2Upstream(this.upstream('v2'), REQUEST_TIMEOUT_MS);
    const signal = this.stopping.signal;
    const job = await v2.getJob(document.upstream_job_id ?? '', { signal });
    // Only the upstream that took the job can say it has none (a document kept before upstreams were
    // recorded is given its 15 minutes instead: the 404 may come from an upstream that never had it).
    if (job === undefined && document.upstream_id !== null) {
      await review.queue.setFailed(
        document.id,
        JSON.stringify({ title: 'Job not found upstream' }),
        review.now(),
      );
      return true;
    }
    // Anything but a job or a 404 (a 422 for an id the upstream cannot read, a 5xx, a proxy's page)
    // was thrown by getJob, said as the status; looked at again later.
    if (job === undefined) return false;
    if (job.status === 'Failed') {
      await review.queue.setFailed(
        document.id,
        JSON.stringify(job.error ?? { title: 'Failed' }),
        review.now(),
      );
      return true;
    }
    if (job.status !== 'Processed' || !job.result_url) return false;
    const result = await v2.getResult(job.result_url, { signal });
    await setRoutedResult(
      review,
      document.id,
      { json: result.text, resultId: result.inferenceId, ...countFields('v2', result.result) },
      review.now(),
    );
    return true;
  }

  private async checkV1(document: DocumentRow): Promise<boolean> {
    const { review } = this.deps;
    const v1 = new V1Upstream(this.upstream('v1'), REQUEST_TIMEOUT_MS);
    const signal = this.stopping.signal;
    const polled = await v1.getQueuedJob(document.model_key, document.upstream_job_id ?? '', { signal });
    if (polled.kind === 'document') {
      const fetched = await v1.getDocument(document.model_key, polled.documentId, { signal });
      await setRoutedResult(
        review,
        document.id,
        { json: fetched.text, resultId: polled.documentId, ...countFields('v1', fetched.result) },
        review.now(),
      );
      return true;
    }
    if (polled.kind === 'job' && polled.job.status === 'failed') {
      await review.queue.setFailed(document.id, JSON.stringify(polled.job.error), review.now());
      return true;
    }
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
