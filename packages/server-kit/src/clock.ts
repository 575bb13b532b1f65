/**
 * The one clock both servers read: every "now" that governs what they do is read from a `Clock`
 * handed down from their composition root (server/main.ts; the reference's create-reference-service.ts),
 * the system's by default, so that tests set the time instead of waiting for it.
 *
 * - The reference service: a job's creation and deadline, when an inference was deleted, v1 jobs'
 *   times, webhook attempts and retries, RAG texts' and documents' timestamps.
 * - The app server: leases (queue, job follower, deliveries, background jobs), sessions and set-up
 *   links, every timestamp written to the review store, the app events' receivedAt.
 *
 * Timers still run on real time: a clock that jumps ahead makes a deadline computed from it nearer,
 * it does not fire a timer already set. What is measured against real time stays on the system clock,
 * each place saying why: files' mtimes (compared with the file system's own times), a wait's deadline
 * beside its setTimeout, log throttling.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The clock's now as a Date. */
export const dateOf = (clock: Clock): Date => new Date(clock.now());
