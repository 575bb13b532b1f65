/**
 * Two app-server copies migrating one empty database at once, each in its own process, on both
 * engines: one applies every migration, the other waits for it (PostgreSQL's advisory lock, SQLite's
 * write lock) and then finds nothing to apply; each migration ran once. The last migration of both
 * (testing/migrating-copy.ts) holds the first copy until the second has said it waits, so the two
 * really overlap, whatever the machine's speed.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../settings/config';
import { createTestDatabase, type TestDatabase } from '@extraction-review/test-kit/review/test-database';
import { knownMigrations } from './migrate';
import { ENGINES } from '@extraction-review/test-kit/review/test-stores';
import { openReviewDatabase } from './open-database';

const GATE = '9999-test-gate';
const WAITING = 'another copy is applying migrations: waiting for it';

interface Copy {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when a line containing `text` has been printed. */
  printed(text: string): Promise<void>;
  /** The exit code, and the `applied` list it printed. */
  done: Promise<{ code: number | null; applied: string[] | undefined; output: string }>;
}

function startCopy(env: NodeJS.ProcessEnv): Copy {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/test-kit/src/review/migrating-copy.ts'],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
    },
  );
  const lines: string[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((w) => line.includes(w.text))) waiter.resolve();
  });
  const done = new Promise<{ code: number | null; applied: string[] | undefined; output: string }>(
    (resolve) =>
      child.on('close', (code) => {
        const last = lines.findLast((line) => line.startsWith('{'));
        const applied = last === undefined ? undefined : (JSON.parse(last) as { applied: string[] }).applied;
        resolve({ code, applied, output: `${lines.join('\n')}\n${stderr}` });
      }),
  );
  return {
    child,
    printed: (text) =>
      lines.some((line) => line.includes(text))
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            waiters.push({ text, resolve });
            void done.then(({ output }) =>
              reject(new Error(`exited without printing "${text}":\n${output}`)),
            );
          }),
    done,
  };
}

describe.each(ENGINES)('two copies migrating at once on %s', (engine) => {
  let dataDir: string | undefined;
  let postgres: TestDatabase | undefined;
  const copies: Copy[] = [];

  afterEach(async () => {
    for (const copy of copies.splice(0)) copy.child.kill();
    await postgres?.drop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('applies each migration once: one copy applies them all, the other waits and finds none', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-migrate-race-'));
    postgres = engine === 'postgres' ? await createTestDatabase() : undefined;
    const env = { APP_DATA_DIR: dataDir, DATABASE_URL: postgres?.url ?? '' };
    const a = startCopy(env);
    const b = startCopy(env);
    copies.push(a, b);

    // Whichever took the lock reaches the last migration and stays there; the other must be waiting.
    const first = await Promise.race([
      a.printed('entered').then(() => a),
      b.printed('entered').then(() => b),
    ]);
    const second = first === a ? b : a;
    await second.printed(WAITING);
    first.child.stdin.write('go\n');
    second.child.stdin.write('go\n');

    const [firstDone, secondDone] = await Promise.all([first.done, second.done]);
    expect(firstDone.code, firstDone.output).toBe(0);
    expect(secondDone.code, secondDone.output).toBe(0);
    expect(firstDone.applied).toEqual([...knownMigrations(), GATE]);
    expect(secondDone.applied).toEqual([]);
    expect(secondDone.output).not.toContain('entered');

    const database = await openReviewDatabase({ databaseUrl: postgres?.url, dataDir, migrate: false });
    try {
      const db = database.db.withTables<{
        kysely_migration: { name: string };
        schema_compatibility: { migration: string; recorded_by: string };
      }>();
      const names = (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map(
        (r) => r.name,
      );
      expect(names).toEqual([...knownMigrations(), GATE]);
      const recorded = await db
        .selectFrom('schema_compatibility')
        .select('migration')
        .orderBy('migration')
        .execute();
      expect(recorded.map((r) => r.migration)).toEqual(names);
    } finally {
      await database.close();
    }
  });
});
