/**
 * For tests (db/concurrent-migrations.test.ts): one app-server copy's migration step, in a process of
 * its own, with this code's migrations and one more at the end that waits to be told to finish. Two
 * of these started together show what the lock does: one applies, the other waits, then finds
 * nothing to apply.
 *
 * Settings from the environment: DATABASE_URL (PostgreSQL) or APP_DATA_DIR (SQLite). Prints on
 * stdout the store's log lines, `entered` when the last migration runs, and at the end one line of
 * JSON `{"applied": [...]}`; the last migration finishes when `go` arrives on stdin.
 */
import { createInterface } from 'node:readline';
import type { Kysely, Migration } from 'kysely';
import {
  knownMigrations,
  prepareSchema,
  THIS_CODE,
  type SchemaCode,
} from '@extraction-review/app-server/review/db/migrate';
import { openWithoutSchema } from './raw-review-database';

export const GATE_MIGRATION = '9999-test-gate';

const stdinLines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => {
  stdinLines.on('line', (line) => {
    if (line.trim() === 'go') resolve();
  });
});

const gate: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
  async up(db: Kysely<any>) {
    // Applied twice, this would fail: the table exists.
    await db.schema.createTable('gate_probe').addColumn('id', 'integer').execute();
    console.log('entered');
    await go;
  },
};

const code: SchemaCode = {
  migrations: (engine) => ({ ...THIS_CODE.migrations(engine), [GATE_MIGRATION]: gate }),
  oldestCodeFor: { ...THIS_CODE.oldestCodeFor, [GATE_MIGRATION]: knownMigrations().at(-1) ?? '' },
  release: '9.9.9-test',
};

const database = openWithoutSchema({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.APP_DATA_DIR ?? '.',
});
try {
  const { applied } = await prepareSchema(database, { migrate: true, code });
  console.log(JSON.stringify({ applied }));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  stdinLines.close();
  await database.close();
}
