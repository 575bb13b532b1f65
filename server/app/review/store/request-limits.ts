/**
 * Counters of the limits every copy must see (issue 22; tables of migration 0015): kept in the review
 * store, not in a copy's memory, so that two copies behind one proxy count one budget.
 *
 * - Failed sign-ins, one row per name and client address, each in a window that starts at its first
 *   failure. A name is limited by the sum of its rows (any address), an address by the sum of its rows
 *   (any name); a right password deletes its own row. One read per try, one upsert per failure.
 * - Fixed-window counters by key (`count`): an integration's requests per minute, an address's tries
 *   of the set-up and password links. One upsert per counted request, which answers the new count.
 *
 * Two tries at the same instant on two copies may both pass the read before either failure is
 * written: a guesser gains at most one try per copy and request in flight, not a way around the limit.
 * Expired rows are swept by housekeeping (`deleteExpired`); until then they count for nothing.
 */
import { sql } from 'kysely';
import type { ReviewDatabase } from '../db/open-database';
import { nameKey } from './operator-store';

export interface SignInLimits {
  perName: number;
  perAddress: number;
  windowMs: number;
}

/** Why a sign-in is refused before its password is checked, and for how long. */
export interface SignInBlock {
  by: 'name' | 'address';
  /** Until the oldest failures stop counting enough to let one try through. */
  retryAfterMs: number;
}

export interface WindowCount {
  count: number;
  /** When this window ends (the next request after it begins a new one). */
  resetAt: number;
}

/** How long until a sum of rows drops below `limit` as rows expire (0: it is below already). */
export function waitUntilBelow(
  rows: readonly { failures: number; expires_at: number }[],
  limit: number,
  now: number,
): number {
  let total = rows.reduce((sum, row) => sum + row.failures, 0);
  if (total < limit) return 0;
  for (const row of [...rows].sort((a, b) => a.expires_at - b.expires_at)) {
    total -= row.failures;
    if (total < limit) return Math.max(0, row.expires_at - now);
  }
  return 0;
}

export class RequestLimits {
  constructor(private readonly store: ReviewDatabase) {}

  /** Whether this name, or this address, has failed too often in its window. */
  async signInBlocked(
    name: string,
    address: string,
    now: number,
    limits: SignInLimits,
  ): Promise<SignInBlock | undefined> {
    const key = nameKey(name);
    const rows = await this.store.db
      .selectFrom('sign_in_failures')
      .select(['name_key', 'address', 'failures', 'expires_at'])
      .where((w) => w.or([w('name_key', '=', key), w('address', '=', address)]))
      .where('expires_at', '>', now)
      .execute();
    const byName = waitUntilBelow(
      rows.filter((row) => row.name_key === key),
      limits.perName,
      now,
    );
    const byAddress = waitUntilBelow(
      rows.filter((row) => row.address === address),
      limits.perAddress,
      now,
    );
    if (byName === 0 && byAddress === 0) return undefined;
    return byName >= byAddress
      ? { by: 'name', retryAfterMs: byName }
      : { by: 'address', retryAfterMs: byAddress };
  }

  /** One more failure of this name from this address (a new window if its last one is over). */
  async recordSignInFailure(name: string, address: string, now: number, windowMs: number): Promise<void> {
    await this.store.db
      .insertInto('sign_in_failures')
      .values({ name_key: nameKey(name), address, failures: 1, expires_at: now + windowMs })
      .onConflict((oc) =>
        oc.columns(['name_key', 'address']).doUpdateSet({
          failures: sql<number>`case when sign_in_failures.expires_at <= ${now} then 1 else sign_in_failures.failures + 1 end`,
          expires_at: sql<number>`case when sign_in_failures.expires_at <= ${now} then excluded.expires_at else sign_in_failures.expires_at end`,
        }),
      )
      .execute();
  }

  /** A right password: this name's failures from this address are forgiven (not others'). */
  async clearSignInFailures(name: string, address: string): Promise<void> {
    await this.store.db
      .deleteFrom('sign_in_failures')
      .where('name_key', '=', nameKey(name))
      .where('address', '=', address)
      .execute();
  }

  /** Counts one request under `key` in a window of `windowMs` from its first request; answers the count. */
  async count(key: string, now: number, windowMs: number): Promise<WindowCount> {
    const row = await this.store.db
      .insertInto('request_counts')
      .values({ counter_key: key, count: 1, expires_at: now + windowMs })
      .onConflict((oc) =>
        oc.column('counter_key').doUpdateSet({
          count: sql<number>`case when request_counts.expires_at <= ${now} then 1 else request_counts.count + 1 end`,
          expires_at: sql<number>`case when request_counts.expires_at <= ${now} then excluded.expires_at else request_counts.expires_at end`,
        }),
      )
      .returning(['count', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), resetAt: Number(row.expires_at) };
  }

  /** Housekeeping: rows whose window is over, at most `batch` of each table. */
  async deleteExpired(now: number, batch = 200): Promise<number> {
    const db = this.store.db;
    const failures = await db
      .deleteFrom('sign_in_failures')
      .where(({ eb, refTuple, selectFrom }) =>
        eb(
          refTuple('name_key', 'address'),
          'in',
          selectFrom('sign_in_failures')
            .select(['name_key', 'address'])
            .where('expires_at', '<=', now)
            .limit(batch)
            .$asTuple('name_key', 'address'),
        ),
      )
      .executeTakeFirst();
    const counts = await db
      .deleteFrom('request_counts')
      .where('counter_key', 'in', (eb) =>
        eb.selectFrom('request_counts').select('counter_key').where('expires_at', '<=', now).limit(batch),
      )
      .executeTakeFirst();
    return Number(failures.numDeletedRows) + Number(counts.numDeletedRows);
  }
}
