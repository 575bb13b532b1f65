/** The PostgreSQL test server is real: databases made per test, a cluster started and fully stopped. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { startPostgresCluster } from './postgres-cluster';
import { createTestDatabase } from './test-database';

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function queryOne(url: string, sql: string): Promise<Record<string, unknown>> {
  return withClient(url, async (client) => (await client.query(sql)).rows[0] as Record<string, unknown>);
}

async function connectionError(url: string): Promise<unknown> {
  return withClient(url, () => Promise.resolve(null)).then(
    () => null,
    (error: unknown) => error,
  );
}

/** Every process whose parent is `pid` (the postmaster's checkpointer, walwriter, backends…). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // Fields after the command name, which is in parentheses and may hold spaces: state, ppid, …
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

function isAlive(pid: number): boolean {
  return existsSync(`/proc/${pid}`);
}

describe('createTestDatabase', () => {
  it('gives each call its own database that accepts connections and queries, and drops it', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    try {
      expect(first.url).not.toBe(second.url);
      for (const database of [first, second]) {
        expect(database.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/review_test_\w+$/);
        const row = await queryOne(database.url, 'select version(), current_database() as name');
        expect(row.version).toMatch(/^PostgreSQL \d+/);
        expect(row.name).toBe(database.name);
      }
      // Distinct databases, not two names for one: a table made in the first is absent from the second.
      await queryOne(first.url, 'create table only_in_first (id int)');
      const seen = await queryOne(second.url, "select to_regclass('only_in_first') as found");
      expect(seen.found).toBeNull();
    } finally {
      await first.drop();
      await second.drop();
    }

    for (const database of [first, second]) {
      expect(await connectionError(database.url)).toMatchObject({ code: '3D000' }); // invalid_catalog_name
    }
    const left = await queryOne(
      inject('postgresUrl'),
      `select count(*)::int as n from pg_database where datname in ('${first.name}', '${second.name}')`,
    );
    expect(left.n).toBe(0);
  });

  it('drops a database even while a connection to it is still open, and drop() may be called again', async () => {
    const database = await createTestDatabase();
    const client = new pg.Client({ connectionString: database.url });
    const ended = new Promise<Error>((resolve) => client.on('error', resolve));
    await client.connect();

    await database.drop();
    await database.drop();

    // The server ended the forgotten connection (57P01 admin_shutdown) instead of refusing the drop.
    expect(await ended).toMatchObject({ code: '57P01' });
    await client.end().catch(() => {});
    expect(await connectionError(database.url)).toMatchObject({ code: '3D000' });
  });
});

describe('startPostgresCluster', () => {
  it('starts a second cluster on 127.0.0.1 and stops it, leaving no process and no directory', async () => {
    const cluster = await startPostgresCluster();
    try {
      expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
      expect(cluster.url).not.toBe(inject('postgresUrl'));
      const settings = await queryOne(
        cluster.url,
        `select version(), current_user as user,
          current_setting('listen_addresses') as listen, current_setting('fsync') as fsync,
          current_setting('max_connections') as max_connections, current_setting('server_encoding') as encoding`,
      );
      expect(settings).toMatchObject({
        version: expect.stringMatching(/^PostgreSQL \d+/),
        user: 'postgres',
        listen: '127.0.0.1',
        fsync: 'off',
        max_connections: '300',
        encoding: 'UTF8',
      });
      expect(existsSync(cluster.dir)).toBe(true);

      const processes = [cluster.pid, ...childrenOf(cluster.pid)];
      expect(processes.length).toBeGreaterThan(1); // the postmaster and its helpers
      await cluster.stop();

      expect(processes.filter(isAlive)).toEqual([]);
      expect(existsSync(cluster.dir)).toBe(false);
      expect(await connectionError(cluster.url)).toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      await cluster.stop();
    }
  });
});
