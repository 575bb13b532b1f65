/**
 * Fake clocks for the tests of retry waits: the wait's `setTimeout`, `Date` (an HTTP-date
 * `Retry-After` is read against it) and `performance` (the test server's arrival times, `at`). They
 * move only when the test moves them, so the gap between two requests is exactly the wait the client
 * took, however loaded the machine; sockets and `setImmediate` stay real.
 */
import { vi } from 'vitest';

/** A whole second, so that an HTTP date (whole seconds) a test server gives is exact. */
const START = new Date('2026-01-05T09:00:00.000Z');

export async function onFakeClocks<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'], now: START });
  try {
    return await run();
  } finally {
    vi.useRealTimers();
  }
}

/** Resolves once the event loop has gone round: timers set by promise callbacks before then exist. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
