/**
 * For tests: a review database that fails every query while it is "down", with the error PostgreSQL
 * sends to its clients on a fast shutdown (SQLSTATE 57P01), then works again: what a background loop
 * meets during a database restart, without restarting one.
 */
import type { ReviewDatabase } from '@extraction-review/app-server/review/db/open-database';

/** A database that fails every query while `down`, with PostgreSQL's admin-shutdown error. */
export function flakyDatabase(real: ReviewDatabase) {
  const state = { down: true, failures: 0, onFailure: (): void => undefined };
  const database: ReviewDatabase = {
    engine: real.engine,
    close: () => real.close(),
    get db() {
      if (state.down) {
        state.failures++;
        state.onFailure();
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        });
      }
      return real.db;
    },
  };
  /** Resolves once `count` failures in all have happened. */
  const failuresReach = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (state.failures >= count) resolve();
      };
      state.onFailure = check;
      check();
    });
  return { database, state, failuresReach };
}
