/**
 * Migration 0015-request-limits (issue 22, limits that fit a company and every copy):
 *
 * - `sign_in_failures`: failed sign-ins, one row per name and client address, counted in a window
 *   that starts at the first failure (http/sign-in-limits.ts sums a name's rows and an address's);
 * - `request_counts`: fixed-window counters by key (an integration's requests of its minute, an
 *   address's uses of the set-up and password links), one upsert per counted request;
 * - `integrations.requests_per_minute`: an integration's limit on the gateway (null: none).
 *
 * Expand-only: two new tables and a nullable column that older code never reads. An older copy keeps
 * counting sign-ins in its own memory, and lets an integration past its limit.
 */
import type { Kysely, Migration } from 'kysely';
import type { Engine } from './migrations';

export function requestLimits(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('sign_in_failures_key', ['name_key', 'address'])
        .execute();
      await db.schema
        .createIndex('sign_in_failures_address')
        .on('sign_in_failures')
        .column('address')
        .execute();
      await db.schema
        .createIndex('sign_in_failures_expiry')
        .on('sign_in_failures')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('request_counts')
        .addColumn('counter_key', 'text', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('request_counts_expiry')
        .on('request_counts')
        .column('expires_at')
        .execute();

      await db.schema.alterTable('integrations').addColumn('requests_per_minute', 'integer').execute();
    },
  };
}
