/**
 * The schema step at open (migrate.ts) on both engines, with codes one migration older or newer than
 * this one: an older copy starts on a newer schema that keeps working with it (a warning naming both
 * versions) and serves reads and writes; it refuses one that does not, naming the release to run;
 * MIGRATE_ON_START=false refuses a schema behind the code, saying to run `npm run migrate`; and the
 * compatibility of migrations applied before it was recorded is filled in.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely, type Migration } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs, type CapturedLogs } from '@extraction-review/test-kit/log-capture';
import { readEnv } from '../../settings/config';
import { reviewSettingsFromEnv } from '../open-review';
import { OperatorStore } from '../store/operator-store';
import { QueueStore } from '../store/queue-store';
import { createTestDatabase, type TestDatabase } from '@extraction-review/test-kit/review/test-database';
import { openWithoutSchema } from '@extraction-review/test-kit/review/raw-review-database';
import {
  knownMigrations,
  prepareSchema,
  readSchemaStatus,
  RELEASE,
  SchemaRefusal,
  THIS_CODE,
  type SchemaCode,
} from './migrate';
import type { Engine } from './migrations';
import { openReviewDatabase, type ReviewDatabase } from './open-database';
import { ENGINES } from '@extraction-review/test-kit/review/test-stores';
import { manualClock } from '@extraction-review/test-kit/manual-clock';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
const LAST = knownMigrations().at(-1) ?? '';

/** This code without its last migration: the release before it. */
const olderCode: SchemaCode = {
  migrations: (engine) => {
    const { [LAST]: _dropped, ...rest } = THIS_CODE.migrations(engine);
    return rest;
  },
  oldestCodeFor: THIS_CODE.oldestCodeFor,
  release: '0.0.9-older',
};

/** This code with one more migration, declaring the oldest code it keeps working with. */
function newerCode(name: string, up: Migration['up'], oldestCode: string): SchemaCode {
  return {
    migrations: (engine) => ({ ...THIS_CODE.migrations(engine), [name]: { up } }),
    oldestCodeFor: { ...THIS_CODE.oldestCodeFor, [name]: oldestCode },
    release: '9.9.9-newer',
  };
}

/** Expand-only: a new table and a nullable column, which this code neither reads nor writes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
const expand = async (db: Kysely<any>) => {
  await db.schema
    .createTable('notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .execute();
  await db.schema.alterTable('documents').addColumn('note', 'text').execute();
};

async function appliedMigrations(database: ReviewDatabase): Promise<string[]> {
  const db = database.db.withTables<{ kysely_migration: { name: string } }>();
  return (await db.selectFrom('kysely_migration').select('name').orderBy('name').execute()).map(
    (r) => r.name,
  );
}

describe.each(ENGINES)('the schema step on %s', (engine: Engine) => {
  let dataDir: string;
  let postgres: TestDatabase | undefined;
  let settings: { databaseUrl: string | undefined; dataDir: string };
  let logs: CapturedLogs;
  const opened: ReviewDatabase[] = [];

  /** The store opened without the schema step, to be migrated as some code would. */
  const raw = () => {
    const database = openWithoutSchema(settings);
    opened.push(database);
    return database;
  };
  /** The settings `npm start` reads from this environment (server/app/settings/config.ts, open-review.ts). */
  const fromEnv = (extra: Record<string, string> = {}) =>
    reviewSettingsFromEnv(
      readEnv({ APP_DATA_DIR: dataDir, DATABASE_URL: settings.databaseUrl ?? '', ...extra }),
    );

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-schema-'));
    postgres = engine === 'postgres' ? await createTestDatabase() : undefined;
    settings = { databaseUrl: postgres?.url, dataDir };
    logs = captureLogs();
  });
  afterEach(async () => {
    logs.restore();
    for (const database of opened.splice(0)) await database.close();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lets the code before this one start on this schema, warning with both versions', async () => {
    await prepareSchema(raw(), { migrate: true });

    // Kysely's Migrator alone refuses: the symptom of issue 19.
    const older = raw();
    const kysely = await new Migrator({
      db: older.db,
      provider: { getMigrations: () => Promise.resolve(olderCode.migrations(engine)) },
    }).migrateToLatest();
    expect(String(kysely.error)).toContain(`previously executed migration ${LAST} is missing`);

    for (const migrate of [true, false]) {
      logs.clear();
      const outcome = await prepareSchema(older, { migrate, code: olderCode });
      expect(outcome).toMatchObject({ applied: [], status: { state: 'newer', schema: LAST } });
      expect(logs.messages('warn')).toHaveLength(1);
      const message = String(logs.messages('warn')[0]);
      expect(message).toContain('release 0.0.9-older');
      expect(message).toContain(`migrated by release ${RELEASE}`);
      expect(message).toContain(`keep working with it, so this copy serves`);
    }
    expect(await appliedMigrations(older)).toEqual(knownMigrations());
  });

  it('starts this code on a newer schema that keeps working with it, and serves reads and writes', async () => {
    const newer = newerCode('9999-test-expand', expand, LAST);
    expect(await prepareSchema(raw(), { migrate: true, code: newer })).toMatchObject({
      applied: [...knownMigrations(), '9999-test-expand'],
    });

    for (const extra of [{}, { MIGRATE_ON_START: 'false' }] as Record<string, string>[]) {
      logs.clear();
      const database = await openReviewDatabase(fromEnv(extra));
      opened.push(database);
      expect(String(logs.messages('warn')[0])).toMatch(
        new RegExp(
          `newer than this code \\(release ${RELEASE.replaceAll('.', '\\.')}, schema ${LAST}\\): it is at ` +
            '9999-test-expand \\(migrated by release 9\\.9\\.9-newer\\)',
        ),
      );
      expect(await readSchemaStatus(database)).toMatchObject({
        state: 'newer',
        unknown: [{ name: '9999-test-expand', oldestCode: LAST, appliedBy: '9.9.9-newer' }],
      });

      const operators = new OperatorStore(database);
      const queue = new QueueStore(database, 60_000);
      const name = `Ada ${opened.length}`;
      const ada = await operators.create({ name, role: 'admin', passwordHash: 'x' }, T0);
      const added = await queue.addDocument({ apiVersion: 'v2', modelKey: 'm', fileName: `${name}.pdf` }, T0);
      await queue.setResult(
        added.id,
        { json: '{}', resultId: `r-${name}`, fieldsTotal: 1, fieldsToReview: 1 },
        T0,
      );
      const taken = await queue.takeNext(ada.id, T0 + 1);
      expect(taken?.id).toBe(added.id);
      expect(
        await queue.decide(added.id, ada.id, taken?.version ?? 0, 'confirmed', null, T0 + 2),
      ).toMatchObject({
        ok: true,
      });
      expect((await queue.find(added.id))?.state).toBe('confirmed');
      expect((await operators.list()).map((o) => o.name)).toContain(name);
    }
  });

  it('refuses a schema too new for this code, naming the release to run, and changes nothing', async () => {
    const contract = newerCode('9999-test-contract', expand, '9999-test-contract');
    await prepareSchema(raw(), { migrate: true, code: contract });
    const before = await appliedMigrations(raw());

    for (const extra of [{}, { MIGRATE_ON_START: 'false' }] as Record<string, string>[]) {
      const refused = await openReviewDatabase(fromEnv(extra)).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(SchemaRefusal);
      expect((refused as SchemaRefusal).status.state).toBe('too-new');
      expect((refused as Error).message).toBe(
        `The review store's schema is too new for this code (release ${RELEASE}, schema ${LAST}): it is at ` +
          '9999-test-contract (migrated by release 9.9.9-newer), and 9999-test-contract works only with code ' +
          'that knows 9999-test-contract or later. Run release 9.9.9-newer (or newer) of extraction-review, ' +
          'or restore the backup taken before that migration (docs/operations.md).',
      );
    }
    expect(await appliedMigrations(raw())).toEqual(before);
  });

  it('refuses a migration it does not know that recorded no compatibility (applied by Kysely alone)', async () => {
    const database = raw();
    await prepareSchema(database, { migrate: true });
    const result = await new Migrator({
      db: database.db,
      provider: {
        getMigrations: () =>
          Promise.resolve({ ...THIS_CODE.migrations(engine), '9999-test-unrecorded': { up: expand } }),
      },
    }).migrateToLatest();
    expect(result.error).toBeUndefined();
    await expect(openReviewDatabase(settings)).rejects.toThrow(
      /too new for this code .* 9999-test-unrecorded recorded no code it keeps working with/,
    );
  });

  it('with MIGRATE_ON_START=false, refuses a schema behind this code, saying to run npm run migrate', async () => {
    await prepareSchema(raw(), { migrate: true, code: olderCode });

    await expect(openReviewDatabase(fromEnv({ MIGRATE_ON_START: 'false' }))).rejects.toThrow(
      `The review store's schema is behind this code (release ${RELEASE}, schema ${LAST}): 1 migration not ` +
        `applied (${LAST}). Run \`npm run migrate\` with this release first`,
    );
    expect(await appliedMigrations(raw())).not.toContain(LAST);

    // The default (MIGRATE_ON_START unset) applies it.
    const database = await openReviewDatabase(fromEnv());
    opened.push(database);
    expect(await appliedMigrations(database)).toEqual(knownMigrations());
    expect(await readSchemaStatus(database)).toEqual({ state: 'current', schema: LAST });
  });

  it('records the compatibility of migrations applied by releases before the record', async () => {
    // The release before issue 19 ran Kysely's Migrator itself, and recorded nothing.
    const database = raw();
    await new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve(olderCode.migrations(engine)) },
    }).migrateToLatest();

    expect((await prepareSchema(database, { migrate: true })).applied).toEqual([LAST]);
    const db = database.db.withTables<{
      schema_compatibility: { migration: string; oldest_code: string; recorded_by: string };
    }>();
    const recorded = await db.selectFrom('schema_compatibility').selectAll().orderBy('migration').execute();
    expect(recorded.map((r) => [r.migration, r.oldest_code, r.recorded_by])).toEqual(
      knownMigrations().map((name) => [name, THIS_CODE.oldestCodeFor[name], RELEASE]),
    );
  });

  it("records each migration at the injected clock's time (server-kit/clock.ts)", async () => {
    await prepareSchema(raw(), { migrate: true, code: olderCode, clock: manualClock(T0) });
    const database = raw();
    await prepareSchema(database, { migrate: true, clock: manualClock(T0 + 60_000) });
    const db = database.db.withTables<{
      schema_compatibility: { migration: string; recorded_at: number | string };
    }>();
    const recorded = await db.selectFrom('schema_compatibility').selectAll().orderBy('migration').execute();
    expect(recorded.map((r) => [r.migration, Number(r.recorded_at)])).toEqual(
      knownMigrations().map((name) => [name, name === LAST ? T0 + 60_000 : T0]),
    );
  });

  it('refuses a schema with migrations it does not know while missing some it does', async () => {
    const database = raw();
    const first = knownMigrations()[0] ?? '';
    await new Migrator({
      db: database.db,
      provider: {
        getMigrations: () =>
          Promise.resolve({
            [first]: THIS_CODE.migrations(engine)[first] as Migration,
            '9999-test-branch': { up: expand },
          }),
      },
    }).migrateToLatest();
    await expect(prepareSchema(database, { migrate: true })).rejects.toThrow(
      /does not follow this code .* it has 9999-test-branch, which this code does not know, but not 0002-review-gateway/,
    );
    expect(await appliedMigrations(database)).toEqual([first, '9999-test-branch']);
  });
});
