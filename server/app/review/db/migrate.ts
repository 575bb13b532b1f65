/**
 * The review store's schema against this code's migrations (migrations.ts): brought up to date
 * (`npm run migrate`, and `npm start` unless MIGRATE_ON_START=false), or only checked, and in both
 * cases a database with migrations this code does not know is allowed when they keep working with it.
 *
 * The code's version, for this purpose, is the last migration it knows (its schema level), with
 * package.json's version (its release) for people. A copy of older code meets a newer schema during a
 * rolling upgrade (old copies restart while new ones run), and on a rollback. Each migration declares
 * the oldest code that still works on it (schema-compatibility.ts); the code that applies it writes
 * that into the database (`schema_compatibility`), since older code cannot know it. Older code then
 * starts with a warning naming both versions when every migration it does not know accepts it, and
 * refuses otherwise, naming the release to run. Kysely's Migrator alone refuses any unknown migration
 * ("corrupted migrations: previously executed migration … is missing"), so it only runs when this code
 * has migrations to apply, which a database with unknown ones never has unless it is inconsistent.
 *
 * Copies migrating at once: everything, from reading the state to the last write, happens under one
 * lock. PostgreSQL: the session-level advisory lock Kysely's Migrator takes (the same key, so older
 * releases that call the Migrator directly are kept out too; it is reentrant, so the Migrator's own
 * take succeeds). SQLite: `BEGIN IMMEDIATE`, its write lock, which also makes every migration of one
 * run a single transaction (Kysely runs SQLite migrations without one).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { z } from 'zod';
import { reviewMigrations, type Engine } from './migrations';
import type { ReviewDatabase } from './open-database';
import { OLDEST_CODE_FOR, oldestCodeFor } from './schema-compatibility';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review store');

/** What a copy's code knows of the schema. Tests make older and newer codes from it. */
export interface SchemaCode {
  /** Its migrations; applied in the order of their names, as Kysely does. */
  migrations(engine: Engine): Record<string, Migration>;
  /** For each migration, the oldest code (its last migration) that works on it. */
  oldestCodeFor: Readonly<Record<string, string>>;
  /** package.json's version. */
  release: string;
}

const PackageJson = z.object({ version: z.string() });

/** This code's release (package.json's version): said in messages, recorded with each migration. */
export const RELEASE = PackageJson.parse(
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', '..', 'package.json'), 'utf8')),
).version;

export const THIS_CODE: SchemaCode = {
  migrations: reviewMigrations,
  oldestCodeFor: OLDEST_CODE_FOR,
  release: RELEASE,
};

/** A code's migrations by name, in the order Kysely applies them. */
export function knownMigrations(code: SchemaCode = THIS_CODE): string[] {
  return Object.keys(code.migrations('sqlite')).sort();
}

/** "release 0.1.0, schema 0006-intake-intents": a code's version as messages say it. */
export function describeCode(code: SchemaCode = THIS_CODE): string {
  return `release ${code.release}, schema ${knownMigrations(code).at(-1) ?? 'none'}`;
}

/** A migration in the database that this code does not know, with what its code recorded. */
export interface UnknownMigration {
  name: string;
  /** The oldest code that works on it; undefined if nothing was recorded (then none is assumed). */
  oldestCode: string | undefined;
  /** The release that applied it. */
  appliedBy: string | undefined;
}

/**
 * The database's schema as this code sees it; `schema` is its last migration (by name).
 * - `current`: exactly this code's migrations.
 * - `behind`: some of this code's migrations are not applied.
 * - `newer`: migrations this code does not know, all of which keep working with it.
 * - `too-new`: migrations this code does not know, some of which do not work with it.
 * - `inconsistent`: unknown migrations while some known ones are missing (no release made it).
 */
export type SchemaStatus =
  | { state: 'current'; schema: string }
  | { state: 'behind'; schema: string | undefined; pending: string[] }
  | { state: 'newer'; schema: string; unknown: UnknownMigration[] }
  | { state: 'too-new'; schema: string; unknown: UnknownMigration[]; blocking: UnknownMigration[] }
  | { state: 'inconsistent'; schema: string; pending: string[]; unknown: UnknownMigration[] };

/** Whether a copy with this code may serve on a schema in this state (readiness: "migrations current"). */
export function isServable(status: SchemaStatus): boolean {
  return status.state === 'current' || status.state === 'newer';
}

export interface SchemaOutcome {
  /** The migrations this call applied, in order. */
  applied: string[];
  status: SchemaStatus;
}

/** Refused: the schema is behind and may not be migrated here, or too new for this code. */
export class SchemaRefusal extends Error {
  constructor(readonly status: SchemaStatus) {
    super(describeSchema(status));
    this.name = 'SchemaRefusal';
  }
}

/** A migration failed; what it did is rolled back (with the others of its run). */
export class MigrationFailed extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(
      `The review store's migration ${migration} failed (nothing of it was kept): ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.name = 'MigrationFailed';
  }
}

const outcomes = new WeakMap<ReviewDatabase, SchemaOutcome>();

/** What opening `database` did to its schema (openReviewDatabase): for `npm run migrate` and start-up lines. */
export function schemaOutcome(database: ReviewDatabase): SchemaOutcome | undefined {
  return outcomes.get(database);
}

/**
 * At open: applies this code's pending migrations (`migrate`, the default), or only checks the schema.
 * Starts (with a warning) on a newer schema that keeps working with this code; throws `SchemaRefusal`
 * when the schema is behind and may not be migrated, or too new, and `MigrationFailed`.
 */
export async function prepareSchema(
  database: ReviewDatabase,
  options: {
    migrate?: boolean | undefined;
    code?: SchemaCode;
    /** The one clock (server-kit/clock.ts): when compatibility is recorded. Default the system's. */
    clock?: Clock | undefined;
    /** Where the lines about the schema go: the log by default; a command's stderr (its stdout is its answer). */
    report?: ((line: string) => void) | undefined;
  } = {},
): Promise<SchemaOutcome> {
  const code = options.code ?? THIS_CODE;
  const report = options.report ?? ((line: string) => logger.info(line));
  const outcome =
    options.migrate === false
      ? { applied: [], status: await readSchemaStatus(database, code) }
      : await migrateUnderLock(database, code, options.clock ?? systemClock);
  for (const name of outcome.applied) {
    report(`[review store] applied migration ${name} (release ${code.release})`);
  }
  if (!isServable(outcome.status)) throw new SchemaRefusal(outcome.status);
  if (outcome.status.state === 'newer')
    (options.report ?? ((line: string) => logger.warn(line)))(
      `[review store] ${describeSchema(outcome.status, code)}`,
    );
  outcomes.set(database, outcome);
  return outcome;
}

/** Reads the schema's state for `code` (this code by default); changes nothing. */
export async function readSchemaStatus(
  database: ReviewDatabase,
  code: SchemaCode = THIS_CODE,
): Promise<SchemaStatus> {
  return readStatus(database.db.withTables<Bookkeeping>(), database.engine, code);
}

/** What each state means for a copy of `code`, in a sentence or three. */
export function describeSchema(status: SchemaStatus, code: SchemaCode = THIS_CODE): string {
  const thisCode = `this code (${describeCode(code)})`;
  switch (status.state) {
    case 'current':
      return `The review store's schema is at ${status.schema}, current for ${thisCode}.`;
    case 'behind':
      return (
        `The review store's schema is behind ${thisCode}: ${count(status.pending, 'migration')} ` +
        `not applied (${status.pending.join(', ')}). Run \`npm run migrate\` with this release first ` +
        '(or start a single copy with MIGRATE_ON_START=true), then start it (docs/operations.md).'
      );
    case 'newer':
      return (
        `The review store's schema is newer than ${thisCode}: it is at ${status.schema}` +
        `${appliedBy(status.unknown)}. The migrations this code does not know (${names(status.unknown)}) ` +
        'keep working with it, so this copy serves; upgrade it to ' +
        `${newestRelease(status.unknown) ?? 'the newer release'} when you can.`
      );
    case 'too-new':
      return (
        `The review store's schema is too new for ${thisCode}: it is at ${status.schema}` +
        `${appliedBy(status.unknown)}, and ${status.blocking.map(needs).join('; ')}. ` +
        `Run ${newestRelease(status.unknown) ?? 'the release that migrated it'} (or newer) of ` +
        'extraction-review, or restore the backup taken before that migration (docs/operations.md).'
      );
    case 'inconsistent':
      return (
        `The review store's schema does not follow ${thisCode}'s migrations: it has ` +
        `${names(status.unknown)}, which this code does not know, but not ${status.pending.join(', ')}, ` +
        `which it does. Run ${newestRelease(status.unknown) ?? 'the release that migrated it'}, or ` +
        'restore a backup (docs/operations.md).'
      );
  }
}

const count = (items: readonly unknown[], noun: string) =>
  `${items.length} ${noun}${items.length === 1 ? '' : 's'}`;
const names = (unknown: readonly UnknownMigration[]) => unknown.map((m) => m.name).join(', ');

function needs(migration: UnknownMigration): string {
  return migration.oldestCode === undefined
    ? `${migration.name} recorded no code it keeps working with`
    : `${migration.name} works only with code that knows ${migration.oldestCode} or later`;
}

function appliedBy(unknown: readonly UnknownMigration[]): string {
  const release = newestRelease(unknown);
  return release === undefined ? '' : ` (migrated by ${release})`;
}

/** The release that applied the last of these migrations: code that certainly works on the schema. */
function newestRelease(unknown: readonly UnknownMigration[]): string | undefined {
  const release = unknown.findLast((m) => m.appliedBy !== undefined)?.appliedBy;
  return release === undefined ? undefined : `release ${release}`;
}

// Kysely's own table, and ours: for each migration, what its code said about older code.
type Bookkeeping = {
  kysely_migration: { name: string; timestamp: string };
  schema_compatibility: {
    migration: string;
    /** The oldest code, by its last migration, that works on a schema with this migration. */
    oldest_code: string;
    /** The release whose code recorded it (the one that applied it, or later for older migrations). */
    recorded_by: string;
    recorded_at: number;
  };
};

type Db = Kysely<Bookkeeping>;

async function readStatus(db: Db, engine: Engine, code: SchemaCode): Promise<SchemaStatus> {
  const known = knownMigrations(code);
  const applied = (await tableExists(db, engine, 'kysely_migration'))
    ? (await db.selectFrom('kysely_migration').select('name').execute()).map((row) => row.name).sort()
    : [];
  const pending = known.filter((name) => !applied.includes(name));
  const unknownNames = applied.filter((name) => !known.includes(name));
  const schema = applied.at(-1);
  if (unknownNames.length === 0) {
    return pending.length === 0 && schema !== undefined
      ? { state: 'current', schema }
      : { state: 'behind', schema, pending };
  }
  const recorded = (await tableExists(db, engine, 'schema_compatibility'))
    ? await db
        .selectFrom('schema_compatibility')
        .select(['migration', 'oldest_code', 'recorded_by'])
        .where('migration', 'in', unknownNames)
        .execute()
    : [];
  const unknown = unknownNames.map((name): UnknownMigration => {
    const row = recorded.find((r) => r.migration === name);
    return { name, oldestCode: row?.oldest_code, appliedBy: row?.recorded_by };
  });
  const lastSchema = schema ?? unknownNames.at(-1) ?? '';
  if (pending.length > 0) return { state: 'inconsistent', schema: lastSchema, pending, unknown };
  const blocking = unknown.filter((m) => m.oldestCode === undefined || !known.includes(m.oldestCode));
  return blocking.length === 0
    ? { state: 'newer', schema: lastSchema, unknown }
    : { state: 'too-new', schema: lastSchema, unknown, blocking };
}

async function tableExists(db: Db, engine: Engine, table: string): Promise<boolean> {
  if (engine === 'postgres') {
    const { rows } = await sql<{ found: boolean }>`select to_regclass(${table}) is not null as found`.execute(
      db,
    );
    return rows[0]?.found === true;
  }
  const { rows } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  return rows.length > 0;
}

async function migrateUnderLock(
  database: ReviewDatabase,
  code: SchemaCode,
  clock: Clock,
): Promise<SchemaOutcome> {
  // One connection for the whole run: the lock (PostgreSQL's is per session), the reads, the Migrator.
  return database.db.connection().execute(async (connection) => {
    const db = connection.withTables<Bookkeeping>();
    const locked = database.engine === 'postgres' ? withPostgresLock : withSqliteWriteLock;
    return locked(db, () => migrateLocked(db, database.engine, code, clock));
  });
}

async function migrateLocked(db: Db, engine: Engine, code: SchemaCode, clock: Clock): Promise<SchemaOutcome> {
  await createCompatibilityTable(db, engine);
  const before = await readStatus(db, engine, code);
  if (before.state === 'too-new' || before.state === 'inconsistent') return { applied: [], status: before };
  const applied = before.state === 'behind' ? await runMigrator(db, engine, code, clock) : [];
  await recordCompatibility(db, code, clock);
  return { applied, status: await readStatus(db, engine, code) };
}

/** Kysely's Migrator on this connection, each migration recording its compatibility as it runs. */
async function runMigrator(db: Db, engine: Engine, code: SchemaCode, clock: Clock): Promise<string[]> {
  const known = knownMigrations(code);
  const migrations = Object.fromEntries(
    Object.entries(code.migrations(engine)).map(([name, migration]): [string, Migration] => [
      name,
      {
        ...migration,
        // In the migration's transaction (PostgreSQL: the Migrator's; SQLite: ours).
        up: async (trx) => {
          await migration.up(trx);
          await recordOne(
            trx as Db,
            name,
            oldestCodeFor(name, known, code.oldestCodeFor),
            code.release,
            clock,
          );
        },
      },
    ]),
  );
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const result = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new MigrationFailed(failed, result.error);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function createCompatibilityTable(db: Db, engine: Engine): Promise<void> {
  await db.schema
    .createTable('schema_compatibility')
    .ifNotExists()
    .addColumn('migration', 'text', (c) => c.primaryKey())
    .addColumn('oldest_code', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text', (c) => c.notNull())
    .addColumn('recorded_at', engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
    .execute();
}

/** Entries for this code's applied migrations that have none (applied by releases before the table). */
async function recordCompatibility(db: Db, code: SchemaCode, clock: Clock): Promise<void> {
  const known = knownMigrations(code);
  const applied = new Set(
    (await db.selectFrom('kysely_migration').select('name').execute()).map((r) => r.name),
  );
  const recorded = new Set(
    (await db.selectFrom('schema_compatibility').select('migration').execute()).map((r) => r.migration),
  );
  for (const name of known) {
    if (applied.has(name) && !recorded.has(name)) {
      await recordOne(db, name, oldestCodeFor(name, known, code.oldestCodeFor), code.release, clock);
    }
  }
}

async function recordOne(
  db: Db,
  migration: string,
  oldestCode: string,
  release: string,
  clock: Clock,
): Promise<void> {
  await db
    .insertInto('schema_compatibility')
    .values({ migration, oldest_code: oldestCode, recorded_by: release, recorded_at: clock.now() })
    // What the code that applied it said stands: a later release does not rewrite history.
    .onConflict((oc) => oc.column('migration').doNothing())
    .execute();
}

// Kysely's PostgresAdapter takes pg_advisory_lock with this key (kysely/dist/esm/dialect/postgres).
const KYSELY_MIGRATION_LOCK = 3853314791062309107n;
/** How long a copy waits for another copy's migrations (an index on a large table can take a while). */
const LOCK_WAIT_MS = 60 * 60_000;
const LOCK_POLL_MS = 250;

/**
 * The advisory lock, asked for with pg_try_advisory_lock every 250 ms rather than waited for in one
 * statement, which the pool's statement and query time-outs would cut. The session's
 * statement_timeout is lifted for the migrations (the client-side query time-out still applies: `npm
 * run migrate` opens the store with a long one) and put back before the connection returns to the pool.
 */
async function withPostgresLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(db);
  const timeout = rows[0]?.statement_timeout ?? '0';
  await sql`select set_config('statement_timeout', '0', false)`.execute(db);
  try {
    await takeAdvisoryLock(db);
    try {
      return await work();
    } finally {
      // A connection lost meanwhile lost its lock with it: nothing to undo then.
      await sql`select pg_advisory_unlock(${sql.lit(KYSELY_MIGRATION_LOCK)})`
        .execute(db)
        .catch(() => undefined);
    }
  } finally {
    await sql`select set_config('statement_timeout', ${timeout}, false)`.execute(db).catch(() => undefined);
  }
}

async function takeAdvisoryLock(db: Db): Promise<void> {
  // A wait beside setTimeout's: real time, on the system clock (server-kit/clock.ts).
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    const { rows } = await sql<{ locked: boolean }>`
      select pg_try_advisory_lock(${sql.lit(KYSELY_MIGRATION_LOCK)}) as locked`.execute(db);
    if (rows[0]?.locked === true) return;
    if (attempt === 1) logger.info(WAITING);
    if (Date.now() > deadline) {
      throw new Error(
        'Another copy has been migrating the review store for an hour; gave up waiting for it.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

const WAITING = '[review store] another copy is applying migrations: waiting for it';

/**
 * SQLite waits for the write lock inside the call, holding the event loop, for its busy time-out (at
 * most 5 s): one try without waiting first (to say why a start pauses), then waits of that length.
 */
const SQLITE_LOCK_WAITS = 720;

async function withSqliteWriteLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (!(await beginImmediateAtOnce(db))) {
    logger.info(WAITING);
    for (let attempt = 1; ; attempt++) {
      try {
        await sql`begin immediate`.execute(db);
        break;
      } catch (error) {
        if (!isSqliteBusy(error) || attempt >= SQLITE_LOCK_WAITS) throw error;
      }
    }
  }
  try {
    const result = await work();
    await sql`commit`.execute(db);
    return result;
  } catch (error) {
    await sql`rollback`.execute(db).catch(() => undefined);
    throw error;
  }
}

/** `BEGIN IMMEDIATE` with no wait: false when another connection holds the write lock. */
async function beginImmediateAtOnce(db: Db): Promise<boolean> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
  const timeout = rows[0]?.timeout ?? 0;
  await sql`pragma busy_timeout = 0`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    return true;
  } catch (error) {
    if (isSqliteBusy(error)) return false;
    throw error;
  } finally {
    await sql.raw(`pragma busy_timeout = ${Number(timeout)}`).execute(db);
  }
}

/** better-sqlite3's SQLITE_BUSY, possibly wrapped (the store's guarded dialect makes it a 503-001). */
function isSqliteBusy(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
