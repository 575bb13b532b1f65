/**
 * `npm run migrate` as a deployment runs it, a child process on the store its settings name, on both
 * engines: `--check` says a migration is pending (exit 4), the command applies it and says so, a second
 * run finds nothing to apply, and a schema too new for this code is refused (exit 3) naming the
 * release to run. The command's exit codes are its usage text's.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../settings/config';
import { knownMigrations, prepareSchema, RELEASE, THIS_CODE, type SchemaCode } from '../db/migrate';
import { ENGINES } from '@extraction-review/test-kit/review/test-stores';
import { openWithoutSchema } from '@extraction-review/test-kit/review/raw-review-database';
import { createTestDatabase, type TestDatabase } from '@extraction-review/test-kit/review/test-database';
import { EXIT, runMigrateCommand, USAGE } from './migrate-command';

const LAST = knownMigrations().at(-1) ?? '';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run migrate -- …args` with these settings only (no .env of the repository takes over). */
function npmRunMigrate(
  env: { APP_DATA_DIR: string; DATABASE_URL: string },
  args: string[] = [],
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'migrate', '--', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(ENGINES)('npm run migrate on %s', (engine) => {
  let dataDir: string;
  let postgres: TestDatabase | undefined;
  let env: { APP_DATA_DIR: string; DATABASE_URL: string };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-migrate-cli-'));
    postgres = engine === 'postgres' ? await createTestDatabase() : undefined;
    // With a password (the test server trusts 127.0.0.1, whatever it is): never printed.
    const url = postgres === undefined ? undefined : new URL(postgres.url);
    if (url !== undefined) url.password = 'not-printed-4711';
    env = { APP_DATA_DIR: dataDir, DATABASE_URL: url?.href ?? '' };
    // The database as the release before this one left it: all but this code's last migration.
    const older: SchemaCode = {
      ...THIS_CODE,
      migrations: (e) =>
        Object.fromEntries(Object.entries(THIS_CODE.migrations(e)).filter(([name]) => name !== LAST)),
    };
    const database = openWithoutSchema({ databaseUrl: postgres?.url, dataDir });
    await prepareSchema(database, { migrate: true, code: older });
    await database.close();
  });
  afterAll(async () => {
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says with --check that a migration is pending, applies it, then finds nothing to apply', async () => {
    const where =
      engine === 'postgres'
        ? 'Review store: PostgreSQL at postgres://postgres:***@127.0.0.1:'
        : `Review store: embedded, in ${dataDir}`;

    const check = await npmRunMigrate(env, ['--check']);
    expect(check.code, check.stderr).toBe(EXIT.pending);
    expect(check.stdout).toContain(where);
    expect(`${check.stdout}${check.stderr}`).not.toContain('not-printed-4711');
    expect(check.stderr).toContain(`1 migration not applied (${LAST}). Run \`npm run migrate\``);

    const first = await npmRunMigrate(env);
    expect(first.code, first.stderr).toBe(EXIT.done);
    expect(first.stdout).toContain(`[review store] applied migration ${LAST} (release ${RELEASE})`);
    expect(first.stdout).toContain(
      `Applied 1 migration. The review store's schema is at ${LAST}, current for this code (release ${RELEASE}, schema ${LAST}).`,
    );

    const again = await npmRunMigrate(env);
    expect(again.code, again.stderr).toBe(EXIT.done);
    expect(again.stdout).not.toContain('applied migration');
    expect(again.stdout).toContain(`Nothing to apply. The review store's schema is at ${LAST}, current`);
  });

  it('refuses a schema too new for this code (exit 3), naming the release to run', async () => {
    const newer: SchemaCode = {
      migrations: (e) => ({
        ...THIS_CODE.migrations(e),
        '9999-test-contract': {
          up: (db) => db.schema.createTable('contracted').addColumn('id', 'text').execute(),
        },
      }),
      oldestCodeFor: { ...THIS_CODE.oldestCodeFor, '9999-test-contract': '9999-test-contract' },
      release: '9.9.9-newer',
    };
    const database = openWithoutSchema({ databaseUrl: postgres?.url, dataDir });
    await prepareSchema(database, { migrate: true, code: newer });
    await database.close();

    const refused = await npmRunMigrate(env);
    expect(refused.code).toBe(EXIT.tooNew);
    expect(refused.stderr).toContain(`too new for this code (release ${RELEASE}, schema ${LAST})`);
    expect(refused.stderr).toContain('Run release 9.9.9-newer (or newer)');
  });
});

describe('the migrate command', () => {
  it('documents its exit codes, and refuses an unknown option with them (exit 2)', async () => {
    let stderr = '';
    const sink = (write: (text: string) => void) =>
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          write(chunk.toString());
          done();
        },
      });
    const code = await runMigrateCommand(['--force'], {
      stdout: sink(() => undefined),
      stderr: sink((text) => (stderr += text)),
      env: {},
    });
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain("Unknown option '--force'");
    for (const [value, words] of [
      [EXIT.done, '0 the schema works with this code'],
      [EXIT.failed, '1 failed'],
      [EXIT.usage, '2 bad arguments'],
      [EXIT.tooNew, '3 refused'],
      [EXIT.pending, '4 (--check) migrations to apply'],
    ] as const) {
      expect(USAGE.replace(/\s+/g, ' '), `exit ${value}`).toContain(words);
    }
  });
});
