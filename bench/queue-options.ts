/**
 * The options of `npm run bench -- queue`:
 *
 *   --documents 100000            how many documents the queue holds (default 100,000); a list
 *                                 (`100000,1000000`) runs each size and prints them side by side
 *   --engines sqlite,postgres     which stores (default both)
 *   --server-only                 only the server figures: no job-follower polls, no Chromium part
 *   --analyze-sqlite              gather SQLite's planner statistics after the seed (the app never
 *                                 does: queue-seed.ts)
 *
 * The job-follower polls and the Chromium part do not depend on the queue's size: they run only when
 * the size is the default one (and not --server-only), so `npm run bench -- queue` is what it was.
 */
import type { Engine } from '@extraction-review/app-server/review/db/migrations';

export const DEFAULT_DOCUMENTS = 100_000;
/** More would take the seed past minutes, and the disk past reason. */
const MAX_DOCUMENTS = 10_000_000;
const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

export interface QueueOptions {
  sizes: number[];
  engines: Engine[];
  /** Run the job-follower polls and the Chromium part too. */
  extras: boolean;
  analyzeSqlite: boolean;
}

export interface QueueArgs {
  documents?: string | undefined;
  engines?: string | undefined;
  serverOnly?: boolean | undefined;
  analyzeSqlite?: boolean | undefined;
}

/** The options, or an error that says what is wrong. */
export function parseQueueOptions(args: QueueArgs): QueueOptions {
  const sizes =
    args.documents === undefined
      ? [DEFAULT_DOCUMENTS]
      : args.documents.split(',').map((item) => {
          const text = item.trim().replace(/_/g, '');
          const value = Number(text);
          if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1 || value > MAX_DOCUMENTS)
            throw new Error(
              `--documents: "${item}" is not a number of documents (a whole number from 1 to ${MAX_DOCUMENTS}; several separated by commas).`,
            );
          return value;
        });
  const engines =
    args.engines === undefined
      ? [...ENGINES]
      : args.engines.split(',').map((item) => {
          const engine = ENGINES.find((known) => known === item.trim());
          if (engine === undefined)
            throw new Error(
              `--engines: "${item}" is not an engine (${ENGINES.join(', ')}; several separated by commas).`,
            );
          return engine;
        });
  return {
    sizes: [...new Set(sizes)],
    engines: ENGINES.filter((engine) => engines.includes(engine)),
    extras: args.serverOnly !== true && sizes.every((size) => size === DEFAULT_DOCUMENTS),
    analyzeSqlite: args.analyzeSqlite === true,
  };
}
