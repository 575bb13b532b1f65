/**
 * A copy's background work, one mechanism for every kind (background/README.md): handlers registered
 * by kind, jobs taken from the table of leased jobs (job-table.ts, one claim statement) by lanes,
 * each job's outcome written back under its lease.
 *
 * - A handler returns `done` (the job goes) or `again` at a time of its own (a schedule: the job
 *   follower's back-off, a delivery's retry policy). A handler that throws has failed a run: the job
 *   is retried after a back-off (1 s doubling to 5 min by default), and kept as `failed` after the
 *   kind's `maxAttempts`; the failure is told once per kind of failure.
 * - Leases: a job is the runner's until `now + leaseMs`; a copy killed mid-job (kill -9) leaves its
 *   jobs to run out, then another copy takes them. stop() cuts handlers short (their `signal`) and
 *   gives back what the runner holds, due at once for another copy.
 * - Time comes from the injected clock (`clock`, server-kit/clock.ts): tests move it, nothing here
 *   reads the wall clock.
 * - The loop cannot end the process (background-loop.ts): a pass that fails (the store away:
 *   `503-001`, a PostgreSQL restart) is told once per kind of failure and the next waits longer.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ReviewDatabase } from '../db/open-database';
import { isStoreUnavailable } from '../db/store-unavailable';
import { BackgroundLoop, describe, FailureLog } from './background-loop';
import { JobTable, type LeasedJob } from './job-table';
import type { Clock } from '@extraction-review/server-kit/clock';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('background');

/** What a handler decides about its job. */
export type JobOutcome = { done: true } | { again: number; payload?: unknown };

export const done: JobOutcome = { done: true };
export const again = (at: number, payload?: unknown): JobOutcome => ({ again: at, payload });

/** A job as its handler sees it. */
export interface RunningJob<P> {
  key: string;
  payload: P;
  /** Failed runs in a row before this one. */
  attempts: number;
  /** The runner holding it, until `leaseUntil`: what a kind's own leases are taken with. */
  owner: string;
  leaseUntil: number;
  /** When it was taken. */
  now: number;
  /** Aborted when the runner stops: give the work back, due at once. */
  signal: AbortSignal;
}

export interface JobHandler<P = unknown> {
  kind: string;
  /** How long a job taken stays this runner's: longer than a run takes. */
  leaseMs: number;
  /** Jobs of this kind run at once by one runner. Default 1. */
  concurrency?: number;
  /** The scopes this copy serves (a job of no scope is anyone's); undefined: every scope. */
  scopes?: readonly string[];
  /** The payload's schema (it crosses the store). Default: whatever was stored. */
  payload?: z.ZodType<P>;
  /** Failed runs after which a job is kept as `failed` and not run again. Default: never. */
  maxAttempts?: number;
  /**
   * Before each pass: enqueues the work written without a job (by older copies during a rolling
   * upgrade, or pending before migration 0006). Idempotent; a job enqueued twice is one job.
   */
  adopt?: (now: number) => Promise<void>;
  /** At stop(), after the runner's jobs are given back: the kind's own leases held by `owner`. */
  release?: (owner: string) => Promise<void>;
  run(job: RunningJob<P>): Promise<JobOutcome>;
}

export interface RunnerOptions {
  /** How the runner is named in the log (`[review intake] the job follower`). */
  name: string;
  database: ReviewDatabase;
  clock: Clock;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler keeps its own payload type
  handlers: readonly JobHandler<any>[];
  /** The pause between passes. Default 1 s. */
  intervalMs?: number;
  /** Jobs one lane takes in a pass at most: a pass ends, and the next begins, in a bounded time. */
  batch?: number;
  /** The first retry of a failed run, doubled per failure up to `maxRetryMs`. Default 1 s, 5 min. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Where failures are told (once per kind). Default the process's logger (warn). */
  log?: (message: string) => void;
}

const INTERVAL_MS = 1_000;
const BATCH = 50;
const RETRY_MS = 1_000;
const MAX_RETRY_MS = 5 * 60_000;

export class BackgroundRunner {
  /** This runner's name in the leases it takes: one per process run, never reused. */
  readonly owner = randomUUID();
  private readonly table: JobTable;
  private readonly loop: BackgroundLoop;
  private readonly runs: FailureLog;
  private readonly inFlight = new Set<Promise<unknown>>();
  /**
   * Jobs whose run or outcome failed with the store away: still leased to this runner. Given back at
   * the start of the next pass that reaches the store, so the work resumes at once when the store
   * returns rather than when the lease runs out (a copy killed meanwhile leaves them to run out).
   */
  private readonly unsettled = new Map<number, LeasedJob>();
  private stopping = new AbortController();

  constructor(private readonly options: RunnerOptions) {
    this.table = new JobTable(options.database);
    this.loop = new BackgroundLoop({
      name: options.name,
      run: () => this.pass(),
      intervalMs: options.intervalMs ?? INTERVAL_MS,
      log: options.log,
    });
    this.runs = new FailureLog(`${options.name} running a job`, options.log);
  }

  private get log(): (message: string) => void {
    return this.options.log ?? ((line: string) => logger.warn(line));
  }

  start(): void {
    this.stopping = new AbortController();
    this.loop.start();
  }

  /** A pass now (work just arrived), or right after the one in flight. */
  wake(): void {
    this.loop.wake();
  }

  /** One pass, its failure told as the loop's would be; never rejects. */
  async runOnce(): Promise<boolean> {
    return this.loop.runOnce();
  }

  /**
   * Stops: handlers in flight are cut short, and every job this runner holds is given back (with the
   * kinds' own leases), due at once for another copy. A failure to give back is told, not thrown:
   * the leases run out instead. Before closing the store.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
    try {
      await this.table.releaseAll(this.owner);
      for (const handler of this.options.handlers) await handler.release?.(this.owner);
    } catch (error) {
      this.log(
        `${this.options.name} could not give its jobs back (they pass to another copy when their ` +
          `leases run out): ${describe(error)}`,
      );
    }
  }

  /**
   * One pass: for each kind, what needs adopting, then every lane until none finds a due job (or its
   * batch is done). Throws the first failure once all lanes are done. Exposed for tests.
   */
  async pass(): Promise<void> {
    const running = this.passOnce();
    this.inFlight.add(running);
    try {
      await running;
    } finally {
      this.inFlight.delete(running);
    }
  }

  private async passOnce(): Promise<void> {
    const failures: unknown[] = [];
    for (const job of [...this.unsettled.values()]) {
      try {
        await this.table.release(job);
        this.unsettled.delete(job.id);
      } catch (error) {
        failures.push(error);
        break;
      }
    }
    for (const handler of this.options.handlers) {
      if (this.stopping.signal.aborted) break;
      try {
        await handler.adopt?.(this.options.clock.now());
      } catch (error) {
        // The jobs already there are still claimed.
        failures.push(error);
      }
      const lanes = Array.from({ length: handler.concurrency ?? 1 }, () => this.lane(handler));
      for (const failure of await Promise.all(lanes)) if (failure !== undefined) failures.push(failure.error);
    }
    if (failures.length > 0) throw failures[0];
  }

  /** Runs jobs of one kind one after another; a failure of the store ends the lane and is handed back. */
  private async lane(handler: JobHandler): Promise<{ error: unknown } | undefined> {
    const signal = this.stopping.signal;
    const batch = this.options.batch ?? BATCH;
    try {
      for (let n = 0; n < batch && !signal.aborted; n++) {
        const now = this.options.clock.now();
        const job = await this.table.claim({
          kind: handler.kind,
          scopes: handler.scopes,
          owner: this.owner,
          now,
          leaseMs: handler.leaseMs,
        });
        if (job === undefined) return undefined;
        try {
          await this.runJob(handler, job, now, signal);
        } catch (error) {
          this.unsettled.set(job.id, job);
          throw error;
        }
      }
    } catch (error) {
      // The store away: the job stays held until its lease runs out (or stop() gives it back).
      return { error };
    }
    return undefined;
  }

  /** Runs one job and writes its outcome under its lease; only a failure to write it throws. */
  private async runJob(handler: JobHandler, job: LeasedJob, now: number, signal: AbortSignal): Promise<void> {
    let outcome: JobOutcome;
    try {
      outcome = await handler.run({
        key: job.key,
        payload: parsePayload(handler, job.payload_json),
        attempts: job.attempts,
        owner: this.owner,
        leaseUntil: job.lease_until,
        now,
        signal,
      });
    } catch (error) {
      // The store away is the pass's failure, not the job's: no attempt spent, the lease left to run
      // out (or given back at stop), the loop backing off.
      if (isStoreUnavailable(error)) throw error;
      const at = this.options.clock.now();
      const giveUp = job.attempts + 1 >= (handler.maxAttempts ?? Infinity);
      await this.table.fail(
        job,
        describe(error),
        at,
        giveUp ? 'give-up' : { retryAt: at + this.retryDelay(job.attempts) },
      );
      this.runs.report(error, `${handler.kind} ${job.key}${giveUp ? ', given up' : ''}`);
      return;
    }
    this.runs.recovered();
    if ('done' in outcome) await this.table.finish(job);
    else await this.table.again(job, outcome.again, this.options.clock.now(), outcome.payload);
  }

  /** The wait after a job's `failures + 1`th failed run in a row. */
  private retryDelay(failures: number): number {
    const first = this.options.retryMs ?? RETRY_MS;
    return Math.min(
      first * 2 ** Math.min(failures, 30),
      Math.max(this.options.maxRetryMs ?? MAX_RETRY_MS, first),
    );
  }
}

function parsePayload<P>(handler: JobHandler<P>, json: string): P {
  const value: unknown = JSON.parse(json);
  return handler.payload === undefined ? (value as P) : handler.payload.parse(value);
}
