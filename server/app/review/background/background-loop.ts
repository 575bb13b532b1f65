/**
 * A copy's background work (the job follower, the way back's deliveries) as a loop that cannot crash
 * the process: each pass's failure is caught, reported once per kind of failure (not a line per pass
 * while the database is away), and the next pass waits longer (doubling up to 30 s); the first pass
 * that works again says so and the loop returns to its pace.
 *
 * Issue 19: a PostgreSQL restart ("the database system is shutting down") rejected out of the
 * follower's timer and ended every copy. Here no promise is left without a handler: `start()`,
 * `wake()` and the timer only ever call `pass()`, which resolves whatever the work does.
 */
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('background');

export interface BackgroundLoopOptions {
  /** How the loop is named in the log (`[review intake] job follower`). */
  name: string;
  /** One pass of work. A throw is a failed pass. */
  run: () => Promise<void>;
  /** The pause between passes while they work. */
  intervalMs: number;
  /** The longest pause after failures. Default 30 s. */
  maxBackoffMs?: number;
  /** Where failures and recoveries are told. Default the process's logger (warn). */
  log?: (message: string) => void;
}

const MAX_BACKOFF_MS = 30_000;

export class BackgroundLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;
  private again = false;
  private active = false;
  private readonly failures: FailureLog;

  constructor(private readonly options: BackgroundLoopOptions) {
    this.failures = new FailureLog(options.name, options.log);
  }

  /** Runs a pass now, then one every `intervalMs` (or later after failures) until stop(). */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.wake();
  }

  /** Waits for the pass in flight; no pass starts after. */
  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** A pass now (work just arrived), or right after the one in flight. Ignored when stopped. */
  wake(): void {
    if (!this.active) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.pass();
    void this.running.then(() => {
      this.running = undefined;
      if (!this.active) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), this.failures.backoff(this.options));
        this.timer.unref();
      }
    });
  }

  /** One pass, its failure reported as the loop's would be; never rejects. Exposed for tests. */
  async runOnce(): Promise<boolean> {
    return this.pass();
  }

  private async pass(): Promise<boolean> {
    try {
      await this.options.run();
      this.failures.recovered();
      return true;
    } catch (error) {
      this.failures.report(error);
      return false;
    }
  }
}

/**
 * Failures told once per kind until things work again, then how many there were. The kind is the
 * error's code where it has one (PostgreSQL's SQLSTATE, Node's `ECONNREFUSED`), else its message with
 * numbers blotted out (ports, ids, times differ from one failure to the next).
 */
export class FailureLog {
  private readonly seen = new Set<string>();
  private count = 0;

  constructor(
    private readonly name: string,
    private readonly log: (message: string) => void = (line) => logger.warn(line),
  ) {}

  /** How many failures in a row. */
  get consecutive(): number {
    return this.count;
  }

  /** `about`: what failed (a job's id), said in the message but not part of the kind. */
  report(error: unknown, about?: string): void {
    this.count++;
    const kind = failureKind(error);
    if (this.seen.has(kind)) return;
    this.seen.add(kind);
    this.log(
      `${this.name} failed${about === undefined ? '' : ` (${about})`}: ${describe(error)} (retried ` +
        'with back-off; this kind of failure is told once until it works again)',
    );
  }

  recovered(): void {
    if (this.count === 0) return;
    this.log(`${this.name} works again after ${this.count} failed attempt${this.count === 1 ? '' : 's'}`);
    this.count = 0;
    this.seen.clear();
  }

  /** The pause before the next pass: the interval, doubled per failure in a row, up to the maximum. */
  backoff(options: { intervalMs: number; maxBackoffMs?: number | undefined }): number {
    if (this.count === 0) return options.intervalMs;
    const max = options.maxBackoffMs ?? MAX_BACKOFF_MS;
    return Math.min(options.intervalMs * 2 ** Math.min(this.count, 30), Math.max(max, options.intervalMs));
  }
}

export function failureKind(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return `code:${code}`;
  }
  return describe(error).replace(/\d+/g, '#').slice(0, 200);
}

export function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0)
    return error.errors.map((e) => describe(e)).join('; ');
  return error instanceof Error ? error.message || error.name : String(error);
}
