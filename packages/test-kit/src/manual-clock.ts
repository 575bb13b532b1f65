/** A clock a test sets (server-kit/clock.ts): the servers' times are what the test says, not when it ran. */
import type { Clock } from '@extraction-review/server-kit/clock';

export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(start: number): ManualClock {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
