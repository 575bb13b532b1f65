/**
 * Which errors mean "the store is away" (503-001) and which do not, with real errors from the drivers
 * where one can be made here: pg connecting to a port nobody listens on, SQLite's busy lock.
 */
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ProblemError } from '@extraction-review/contract/problem';
import { asStoreUnavailable, isStoreUnavailable, StoreUnavailableError } from './store-unavailable';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it('knows a PostgreSQL that cannot be reached, from pg itself', async () => {
    const client = new pg.Client({ connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x` });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isStoreUnavailable(refused)).toBe(true);
  });

  it('knows SQLite busy past its time-out, from better-sqlite3 itself', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'busy-'));
    const one = new Database(path.join(dir, 'x.sqlite'));
    const two = new Database(path.join(dir, 'x.sqlite'), { timeout: 10 });
    try {
      one.exec('create table t (n int)');
      one.exec('begin immediate');
      let busy: unknown;
      try {
        two.exec('insert into t values (1)');
      } catch (error) {
        busy = error;
      }
      expect((busy as { code?: string }).code).toBe('SQLITE_BUSY');
      expect(isStoreUnavailable(busy)).toBe(true);
    } finally {
      one.close();
      two.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['an admin shutdown', withCode('terminating connection due to administrator command', '57P01')],
    [
      'a crash shutdown',
      withCode('terminating connection because of crash of another server process', '57P02'),
    ],
    ['a server starting', withCode('the database system is starting up', '57P03')],
    ['a statement time-out', withCode('canceling statement due to statement timeout', '57014')],
    ['a connection failure', withCode('connection failure', '08006')],
    ['a connection ended', new Error('Connection terminated unexpectedly')],
    ['a connect time-out', new Error('Connection terminated due to connection timeout')],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect')],
    ['a query time-out', new Error('Query read timeout')],
    ['a cause of any of these', new Error('wrapped', { cause: withCode('reset', 'ECONNRESET') })],
  ])('says yes to %s', (_, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value', '23505')],
    ['a syntax error', withCode('syntax error at or near', '42601')],
    ['a SQLite constraint', withCode('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE')],
    ['a programming error', new TypeError('x is not a function')],
    ['not an error', 'Connection terminated'],
  ])('says no to %s', (_, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });

  it('turns the first kind into 503-001 with Retry-After, the cause kept, and leaves the rest as they are', () => {
    const cause = withCode('terminating connection due to administrator command', '57P01');
    const sorted = asStoreUnavailable(cause);
    expect(sorted).toBeInstanceOf(StoreUnavailableError);
    expect(sorted).toBeInstanceOf(ProblemError);
    const problem = sorted as StoreUnavailableError;
    expect(problem.status).toBe(503);
    expect(problem.code).toBe('503-001');
    expect(problem.headers['Retry-After']).toMatch(/^\d+$/);
    expect(problem.cause).toBe(cause);
    // Never the driver's words in the body.
    expect(problem.toBody().detail).not.toContain('administrator');
    const other = withCode('duplicate key value', '23505');
    expect(asStoreUnavailable(other)).toBe(other);
  });
});
