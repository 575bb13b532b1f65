/**
 * The reference service's one clock: every "now" that governs what it does (a job's creation and
 * deadline, when an inference was deleted, v1 jobs' times, webhook attempts and retries, RAG texts'
 * and documents' timestamps) is read from the `Clock` handed to create-reference-service.ts, the
 * system's by default, so that tests set the time instead of waiting for it.
 *
 * Timers still run on real time: a clock that jumps ahead makes a deadline computed from it nearer
 * (jobs/job-service.ts), it does not fire a timer already set.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The clock's now as a Date. */
export const dateOf = (clock: Clock): Date => new Date(clock.now());
