/**
 * Readiness (`GET /api/health/ready`): whether this copy should be sent requests, as a list of named
 * checks injected by whoever builds the app (server/main.ts; checks.ts has the usual ones). Each check
 * has a time limit (READY_CHECK_TIMEOUT_MS): a check that does not answer in time counts as failing,
 * so a frozen database makes readiness `503` within the limit instead of hanging the load balancer's
 * probe. A check is `required` (failing it fails readiness) or a reported detail (the upstream).
 *
 * One run of a check at a time: a probe arriving while the check's previous run is still under way
 * shares that run's result, even once the run has timed out and is still hanging (a `select 1` on a
 * frozen database). Probes every second against a frozen database then hold one connection, not one
 * more per probe until the pool is gone.
 *
 * Draining (SIGTERM, server/app/shutdown.ts): the built-in `shutdown` check fails from that moment,
 * whatever the others say.
 */

export type CheckState = 'ok' | 'failing' | 'timeout';

export interface CheckResult {
  state: CheckState;
  /** Whether this check failing makes the copy not ready (the upstream's does not). */
  required: boolean;
  /** What is wrong, or a note on what is fine; never a secret, a URL or an address. */
  detail?: string;
}

/** What a check's run may resolve with; a throw is `failing` with the error's message. */
export interface CheckOutcome {
  ok: boolean;
  detail?: string;
}

export interface ReadinessCheck {
  /** Unique: the key of its result in the answer. */
  name: string;
  /** Default true. False: reported, never failing readiness. */
  required?: boolean;
  /** This check's time limit; default the readiness's. */
  timeoutMs?: number;
  /**
   * Resolves when fine (nothing, or an outcome), throws or resolves `{ ok: false }` when not. The
   * signal aborts at the time limit: a check that can stop its work (a fetch) should.
   */
  run(signal: AbortSignal): Promise<CheckOutcome | undefined>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

export interface ReadinessOptions {
  /** Each check's time limit unless it has its own (READY_CHECK_TIMEOUT_MS). */
  timeoutMs: number;
  checks?: readonly ReadinessCheck[];
}

/** A run still under way this many time limits after it began is not waited for any more. */
const STALE_RUNS = 10;

/** The name of the built-in check that fails once the copy drains. */
export const SHUTDOWN_CHECK = 'shutdown';

export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private readonly timeoutMs: number;
  /** Each check's run under way (until its work settles, time-out or not), and its result. */
  private readonly running = new Map<string, Promise<CheckResult>>();
  private drainingSince: string | undefined;

  constructor(options: ReadinessOptions) {
    this.timeoutMs = options.timeoutMs;
    for (const check of options.checks ?? []) this.add(check);
  }

  /** Adds a check (the integrator's, or one whose dependency appeared after the app was built). */
  add(check: ReadinessCheck): void {
    if (check.name === SHUTDOWN_CHECK || this.checks.some((c) => c.name === check.name)) {
      throw new Error(`A readiness check named ${check.name} exists already.`);
    }
    this.checks.push(check);
  }

  /** The names of the checks, in the order they are reported (the shutdown check last). */
  get names(): string[] {
    return [...this.checks.map((c) => c.name), SHUTDOWN_CHECK];
  }

  /** From now on the copy is not ready (SIGTERM): the load balancer stops sending it requests. */
  startDraining(reason: string): void {
    this.drainingSince ??= reason;
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Runs every check at once; resolves within the longest time limit. */
  async report(): Promise<ReadinessReport> {
    const results = await Promise.all(this.checks.map((check) => this.resultOf(check)));
    const checks: Record<string, CheckResult> = {};
    this.checks.forEach((check, index) => {
      const result = results[index];
      if (result !== undefined) checks[check.name] = result;
    });
    checks[SHUTDOWN_CHECK] =
      this.drainingSince === undefined
        ? { state: 'ok', required: true }
        : { state: 'failing', required: true, detail: this.drainingSince };
    const ready = Object.values(checks).every((result) => !result.required || result.state === 'ok');
    return { ready, checks };
  }

  private resultOf(check: ReadinessCheck): Promise<CheckResult> {
    const under = this.running.get(check.name);
    if (under !== undefined) return under;
    const { result, settled } = this.run(check);
    this.running.set(check.name, result);
    const forget = () => {
      if (this.running.get(check.name) === result) this.running.delete(check.name);
    };
    // Work that never settles (a connection lost without a reset) is given up on after a while, so
    // that readiness can turn 200 again once what it checks is back.
    const giveUp = setTimeout(forget, STALE_RUNS * (check.timeoutMs ?? this.timeoutMs));
    giveUp.unref();
    void settled.finally(() => {
      clearTimeout(giveUp);
      forget();
    });
    return result;
  }

  /** One run: its result by the time limit, and when its work has settled (possibly much later). */
  private run(check: ReadinessCheck): { result: Promise<CheckResult>; settled: Promise<unknown> } {
    const required = check.required ?? true;
    const limit = check.timeoutMs ?? this.timeoutMs;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const work = Promise.resolve()
      .then(() => check.run(abort.signal))
      .then(
        (outcome): CheckResult => {
          const ok = outcome?.ok ?? true;
          return {
            state: ok ? 'ok' : 'failing',
            required,
            ...(outcome?.detail !== undefined ? { detail: outcome.detail } : {}),
          };
        },
        (error: unknown): CheckResult => ({ state: 'failing', required, detail: messageOf(error) }),
      );
    const timedOut = new Promise<CheckResult>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve({ state: 'timeout', required, detail: `no answer within ${limit} ms` });
      }, limit);
      timer.unref();
    });
    const settled = work.finally(() => clearTimeout(timer));
    return { result: Promise.race([work, timedOut]), settled };
  }
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // A driver's message may quote a connection string: keep the detail short and without credentials.
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s]*/gi, '<url>').slice(0, 300);
}
