/**
 * Follows the upstream jobs of documents still `processing` in the review store, and brings each
 * result in: a processed v2 job's inference (or a completed v1 job's document) is fetched with the
 * server's key and stored, and the document enters the queue (`to_review`; or, sent by an
 * integration, confirmed on its own when its model's routing rules say so, routing/route-result.ts);
 * a failed job marks it `failed` with the upstream's problem.
 *
 * It polls as the official clients do (first after ~1.5 s, then backing off ×1.5 to 30 s, given up
 * after 15 min), and that schedule lives in the document's row (`next_check_at`,
 * `check_interval_ms`), not in memory. It runs as one kind of the copies' background work
 * (background/README.md, issue 20): each processing document has a `follow-job` job, taken under a
 * lease by one copy at a time with the table's one claim statement; the copy also takes the lease in
 * the document's row (`follow_holder`, `follow_until`, issue 19) before it checks, which is what
 * copies of the release before follow, so a job is never followed by an old and a new copy at once
 * during a rolling upgrade. Then it checks the job, writes the next due time in the row and in the job,
 * and gives both leases back. So each processing job is polled about as often with three copies as
 * with one; a copy that dies mid-check leaves its leases to run out (2 min) and another carries on; a
 * copy that stops gives its leases back at once. Documents that have no job yet (kept by an older
 * copy, or before migration 0006) get one at the start of each pass (`adopt`).
 *
 * A copy follows only documents its own upstream took (`upstream_id`, upstream-identity.ts: the job's
 * scope) and the documents kept before upstreams were recorded (`upstream_id` null). A 404 fails a document only
 * when it comes from the upstream that took it; for an old document it may come from another upstream
 * (each copy with its own embedded reference service), so it is retried until the 15 minutes are up.
 *
 * The upstream is called through the app server's upstream client (app/upstream/: the contract's
 * schemas on what it reads, 30 s per request, cut short by stop()). The loop never ends the process
 * (background/background-loop.ts): a pass that fails (the database away) is told once per kind of
 * failure and retried with back-off.
 */
import type { Kysely } from 'kysely';
import type { Upstream } from '../../upstream/upstream-client';
import { V1Upstream } from '../../upstream/v1-upstream';
import { V2Upstream } from '../../upstream/v2-upstream';
import { FailureLog } from '../background/background-loop';
import { again, BackgroundRunner, done, type JobHandler, type JobOutcome } from '../background/job-runner';
import type { DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import type { ReviewContext } from '../review-context';
import { setRoutedResult } from '../routing/route-result';
import {
  adoptFollowJobs,
  findFollowState,
  FIRST_CHECK_MS,
  giveBackFollowLease,
  releaseFollowLeases,
  takeFollowLease,
} from '../store/queue-store';
import { countFields } from './count-fields';
import { upstreamIdentity } from './upstream-identity';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review intake');

export { FIRST_CHECK_MS };
export const MAX_INTERVAL_MS = 30_000;
const BACKOFF = 1.5;
const TICK_MS = 1_000;
/** A job still unfinished this long after its document was received is given up as failed. */
export const GIVE_UP_MS = 15 * 60 * 1000;
const REQUEST_TIMEOUT_MS = 30_000;
/** A check is at most two requests and a write: the lease outlasts them. */
export const FOLLOW_LEASE_MS = 2 * REQUEST_TIMEOUT_MS + 60_000;
/** The job follower's kind of background work; its key is the document's id. */
export const FOLLOW_KIND = 'follow-job';

export interface FollowerDeps {
  review: Pick<ReviewContext, 'queue' | 'database' | 'clock'>;
  /** The upstreams this copy sends jobs to: which documents it follows (their identities). */
  upstream: { v2?: Upstream | undefined; v1?: Upstream | undefined };
  /** How long a job taken stays this copy's. Default 2 min. */
  leaseMs?: number;
  /** The pause between passes. Default 1 s. */
  tickMs?: number;
  /** Where the loop's failures are told (once per kind). Default the process's logger (warn). */
  log?: (message: string) => void;
}

export class JobFollower {
  /** The follower as a kind of background work, for a runner shared with other kinds. */
  readonly handler: JobHandler<unknown>;
  private readonly runner: BackgroundRunner;
  /** How they are called: the upstream client, with the follower's time-out. */
  private readonly v2: V2Upstream | undefined;
  private readonly v1: V1Upstream | undefined;
  private readonly checks: FailureLog;
  private readonly scopes: string[];

  constructor(private readonly deps: FollowerDeps) {
    this.scopes = (['v2', 'v1'] as const).flatMap((version) => {
      const upstream = deps.upstream[version];
      return upstream === undefined
        ? []
        : [version, `${version} ${upstream.identity ?? upstreamIdentity(upstream.url)}`];
    });
    this.v2 = deps.upstream.v2 && new V2Upstream(deps.upstream.v2, REQUEST_TIMEOUT_MS);
    this.v1 = deps.upstream.v1 && new V1Upstream(deps.upstream.v1, REQUEST_TIMEOUT_MS);
    const log = deps.log ?? ((line: string) => logger.warn(line));
    this.checks = new FailureLog('[review intake] checking a job upstream', log);
    this.handler = this.followHandler();
    this.runner = new BackgroundRunner({
      name: '[review intake] the job follower',
      database: deps.review.database,
      clock: deps.review.clock,
      handlers: this.scopes.length === 0 ? [] : [this.handler],
      intervalMs: deps.tickMs ?? TICK_MS,
      log,
    });
  }

  /** This follower's name in the leases it takes: one per process run, never reused. */
  get holder(): string {
    return this.runner.owner;
  }

  private get leaseMs(): number {
    return this.deps.leaseMs ?? FOLLOW_LEASE_MS;
  }

  private get db(): Kysely<ReviewDatabaseSchema> {
    return this.deps.review.database.db;
  }

  start(): void {
    this.runner.start();
  }

  /**
   * Stops: a check in flight is cut short, and every job this follower holds is given back, due at
   * once for another copy. Before closing the store.
   */
  async stop(): Promise<void> {
    await this.runner.stop();
  }

  /**
   * A new document. Its row already says when its job is first due (1.5 s after it was received), and
   * the next pass gives it its job, so nothing more is needed; kept for the intake's hook.
   */
  follow(documentId: string): void {
    void documentId;
  }

  /** One pass, never rejecting (its failure told as the loop's would be). Exposed for tests. */
  async runOnce(): Promise<boolean> {
    return this.runner.runOnce();
  }

  /** One pass: every job due now that no other copy holds, one at a time. Exposed for tests. */
  async tick(): Promise<void> {
    await this.runner.pass();
  }

  private followHandler(): JobHandler<unknown> {
    return {
      kind: FOLLOW_KIND,
      leaseMs: this.leaseMs,
      scopes: this.scopes,
      adopt: (now) => this.adopt(now),
      // The documents' own leases (what older copies read), given back with the jobs.
      release: (owner) => releaseFollowLeases(this.db, owner),
      run: async ({ key, owner, leaseUntil, now, signal }) => {
        const document = await this.take(key, owner, leaseUntil, now);
        if ('outcome' in document) return document.outcome;
        return this.handle(document.row, owner, leaseUntil, signal);
      },
    };
  }

  /** A job for every processing document that has none (kept by an older copy, or before 0006). */
  private async adopt(now: number): Promise<void> {
    await adoptFollowJobs(this.db, FOLLOW_KIND, now);
  }

  /**
   * The document's own lease, taken for the job's: processing, due, and held by no copy (an older
   * copy follows with this lease alone) or by this runner. Otherwise what becomes of the job.
   */
  private async take(
    id: string,
    owner: string,
    leaseUntil: number,
    now: number,
  ): Promise<{ row: DocumentRow } | { outcome: JobOutcome }> {
    const row = await takeFollowLease(this.db, id, owner, leaseUntil, now);
    if (row !== undefined) return { row };
    const current = await findFollowState(this.db, id);
    if (current === undefined || current.state !== 'processing' || current.upstream_job_id === null)
      return { outcome: done };
    // Held by another copy (an older release's follower): looked at again soon, since it writes the
    // next due time when it lets go, and at the latest when its lease runs out.
    if (current.follow_holder !== null && current.follow_until !== null && current.follow_until > now)
      return {
        outcome: again(
          Math.min(current.follow_until, Math.max(Number(current.due_at), now + FIRST_CHECK_MS)),
        ),
      };
    // Checked meanwhile by another copy, which wrote the next due time.
    return { outcome: again(Number(current.due_at)) };
  }

  /** Checks one job taken under the lease `followUntil`, then schedules it or lets it go. */
  private async handle(
    document: DocumentRow,
    owner: string,
    followUntil: number,
    signal: AbortSignal,
  ): Promise<JobOutcome> {
    const { review } = this.deps;
    let settled = false;
    try {
      settled = await this.check(document, signal);
      this.checks.recovered();
    } catch (error) {
      if (signal.aborted) {
        // Cut short by stop(): due again at once, for whichever copy looks next.
        await this.letGo(document, owner, followUntil, {});
        return again(review.clock.now());
      }
      this.checks.report(error, `job ${document.upstream_job_id ?? ''}`);
    }
    const now = review.clock.now();
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
      await this.letGo(document, owner, followUntil, {});
      return done;
    }
    // Whole milliseconds: the row's columns are integers.
    const interval = Math.round(
      Math.min((document.check_interval_ms ?? FIRST_CHECK_MS) * BACKOFF, MAX_INTERVAL_MS),
    );
    await this.letGo(document, owner, followUntil, {
      next_check_at: now + interval,
      check_interval_ms: interval,
    });
    return again(now + interval);
  }

  /**
   * Gives a document's lease back, with its next due time. Only while the lease is still ours: a copy
   * that took it over after our lease ran out keeps its own schedule.
   */
  private async letGo(
    document: DocumentRow,
    owner: string,
    followUntil: number,
    schedule: { next_check_at?: number; check_interval_ms?: number },
  ): Promise<void> {
    await giveBackFollowLease(this.db, document.id, owner, followUntil, schedule);
  }

  /** Whether the document left `processing` (its result stored, or its failure). */
  private async check(document: DocumentRow, signal: AbortSignal): Promise<boolean> {
    return document.api_version === 'v2' ? this.checkV2(document, signal) : this.checkV1(document, signal);
  }

  private async checkV2(document: DocumentRow, signal: AbortSignal): Promise<boolean> {
    const { review } = this.deps;
    if (this.v2 === undefined) throw new Error('no v2 upstream');
    const job = await this.v2.getJob(document.upstream_job_id ?? '', { signal });
    // Only the upstream that took the job can say it has none (a document kept before upstreams were
    // recorded is given its 15 minutes instead: the 404 may come from an upstream that never had it).
    if (job === undefined && document.upstream_id !== null) {
      await review.queue.setFailed(
        document.id,
        JSON.stringify({ title: 'Job not found upstream' }),
        review.clock.now(),
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
        review.clock.now(),
      );
      return true;
    }
    if (job.status !== 'Processed' || !job.result_url) return false;
    const result = await this.v2.getResult(job.result_url, { signal });
    await setRoutedResult(
      review,
      document.id,
      { json: result.text, resultId: result.inferenceId, ...countFields('v2', result.result) },
      review.clock.now(),
    );
    return true;
  }

  private async checkV1(document: DocumentRow, signal: AbortSignal): Promise<boolean> {
    const { review } = this.deps;
    if (this.v1 === undefined) throw new Error('no v1 upstream');
    const polled = await this.v1.getQueuedJob(document.model_key, document.upstream_job_id ?? '', { signal });
    if (polled.kind === 'document') {
      const fetched = await this.v1.getDocument(document.model_key, polled.documentId, { signal });
      await setRoutedResult(
        review,
        document.id,
        { json: fetched.text, resultId: polled.documentId, ...countFields('v1', fetched.result) },
        review.clock.now(),
      );
      return true;
    }
    if (polled.kind === 'job' && polled.job.status === 'failed') {
      await review.queue.setFailed(document.id, JSON.stringify(polled.job.error), review.clock.now());
      return true;
    }
    return false;
  }
}
