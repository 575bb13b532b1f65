/**
 * The readiness checks a copy of the app server usually has (readiness.ts runs them, each within its
 * time limit): the review store answers, its schema is the one this code needs, the queue's `LISTEN`
 * connection is up, the file storage takes a write, and (reported, never failing) the upstream
 * answers. Each takes only what it checks, so that main.ts, tests and the integrator compose them.
 */
import { sql } from 'kysely';
import type { ReviewDatabase } from '../review/db/open-database';
import type { UpstreamTarget } from '../upstream/upstream-target';
import { errorCode } from '../upstream/exchange';
import { probeUpstream } from '../upstream/probe';
import type { CheckOutcome, ReadinessCheck } from './readiness';

/** The review store answers a `select 1` (through the pool: a pool exhausted or a database away fails). */
export function databaseCheck(database: Pick<ReviewDatabase, 'db'>): ReadinessCheck {
  return {
    name: 'database',
    run: async () => {
      await sql`select 1`.execute(database.db);
    },
  };
}

/**
 * The store's schema is current for this code (the upgrade's own function says how it knows: a
 * newer compatible schema is fine, an older one is not).
 */
export function migrationsCheck(isCurrent: () => Promise<boolean | CheckOutcome>): ReadinessCheck {
  return {
    name: 'migrations',
    run: async () => {
      const answer = await isCurrent();
      return typeof answer === 'boolean'
        ? { ok: answer, ...(answer ? {} : { detail: 'the schema is not the one this code needs' }) }
        : answer;
    },
  };
}

/**
 * The queue's event connection (PostgreSQL `LISTEN`): without it this copy's browsers miss the other
 * copies' changes. Undefined when the bus cannot tell (an older bus, or SQLite's in-process one).
 */
export function listenCheck(bus: object): ReadinessCheck | undefined {
  const connected = (bus as { connected?: unknown }).connected;
  if (typeof connected !== 'function') return undefined;
  return {
    name: 'listen',
    run: () => {
      const up = Boolean((connected as () => unknown).call(bus));
      return Promise.resolve(up ? { ok: true } : { ok: false, detail: 'the LISTEN connection is down' });
    },
  };
}

/**
 * The file storage takes a write (the storage's own `check()`: a disk's directory, the database's
 * table, the bucket). Undefined when the storage cannot tell.
 */
export function fileStorageCheck(files: object | undefined): ReadinessCheck | undefined {
  const check = (files as { check?: unknown } | undefined)?.check;
  if (typeof check !== 'function') return undefined;
  return {
    name: 'fileStorage',
    run: async () => {
      const answer: unknown = await (check as () => Promise<unknown>).call(files);
      // A storage may answer its own outcome, or nothing (a throw being its failure).
      if (typeof answer === 'object' && answer !== null && 'ok' in answer) {
        const { ok, detail } = answer as { ok: unknown; detail?: unknown };
        return { ok: ok === true, ...(typeof detail === 'string' ? { detail } : {}) };
      }
      return undefined;
    },
  };
}

/**
 * The upstream answers HTTP at its base URL (any status: reachable is what is asked, and no key is
 * sent). Reported, never failing readiness: every copy shares the upstream, so taking copies out of
 * the balancer for it would help nobody, and the proxy answers its own 502/504 meanwhile.
 */
export function upstreamCheck(name: string, target: Pick<UpstreamTarget, 'url'>): ReadinessCheck {
  return {
    name,
    required: false,
    run: async (signal) => {
      let status: number;
      try {
        status = await probeUpstream(target.url, signal);
      } catch (error) {
        if (signal.aborted) throw new Error('no answer in time', { cause: error });
        const code = errorCode(error);
        throw new Error(`unreachable${code === undefined ? '' : ` (${code})`}`, { cause: error });
      }
      return { ok: true, detail: `answered HTTP ${status}` };
    },
  };
}
