/**
 * A fresh, empty PostgreSQL database for a test file (or a test), on the server the `node` project's
 * globalSetup started (./postgres-global-setup). Databases, not schemas: the code under test sees a
 * whole database of its own, exactly as in production, and files running in parallel never meet.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
// For its `declare module 'vitest'`: the type of inject('postgresUrl').
import type {} from './postgres-global-setup';

export interface TestDatabase {
  /** `postgres://postgres@127.0.0.1:<port>/<name>`: connect with it as the superuser. */
  readonly url: string;
  readonly name: string;
  /** Drops the database, ending any connection still open to it. Idempotent. */
  drop(): Promise<void>;
}

// A recognisable prefix, so leftovers on a shared TEST_DATABASE_URL server can be found and dropped.
const PREFIX = 'review_test_';

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = postgresAdminUrl();
  const name = `${PREFIX}${process.pid}_${randomBytes(6).toString('hex')}`;
  // The name is ours ([a-z0-9_]): safe to write into the statement, which takes no parameters.
  await withAdmin(adminUrl, async (admin) => {
    await admin.query(`CREATE DATABASE "${name}"${await fastestStrategy(admin)}`);
  });
  let dropped: Promise<void> | undefined;
  return {
    url: databaseUrl(adminUrl, name),
    name,
    // WITH (FORCE) (PostgreSQL 13+) terminates connections still open, such as a pool not closed.
    drop: () =>
      (dropped ??= withAdmin(adminUrl, async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      })),
  };
}

function postgresAdminUrl(): string {
  const url = inject('postgresUrl') as string | undefined;
  if (!url) {
    throw new Error(
      "No PostgreSQL server: inject('postgresUrl') is empty. Run this test in Vitest's `node` project, " +
        'whose globalSetup (packages/test-kit/src/review/postgres-global-setup.ts) starts one.',
    );
  }
  return url;
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * PostgreSQL 15+ copies the template through the WAL by default (~120 ms here); copying its files
 * takes ~20 ms, the checkpoints it costs being cheap with fsync off. Older servers only copy files.
 */
async function fastestStrategy(admin: pg.Client): Promise<string> {
  const { rows } = await admin.query<{ version: number }>(
    "select current_setting('server_version_num')::int as version",
  );
  return (rows[0]?.version ?? 0) >= 150_000 ? ' STRATEGY FILE_COPY' : '';
}

async function withAdmin(adminUrl: string, use: (admin: pg.Client) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await use(admin);
  } finally {
    await admin.end();
  }
}
