/**
 * The `migrate` command (entry: ./migrate.ts): applies the review store's pending migrations on their
 * own, a deployment's one-off step before the copies of a new release start (with
 * MIGRATE_ON_START=false), or says whether any are pending (`--check`). It reads the server's own
 * settings (APP_DATA_DIR, DATABASE_URL), so it works on the store the server uses, even while older
 * copies run on it (docs/operations.md). What the schema may be, and when a copy refuses it:
 * ../db/migrate.ts.
 */
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { readEnv, type Env } from '../../settings/config';
import { describeSchema, MigrationFailed, schemaOutcome, SchemaRefusal } from '../db/migrate';
import { openReviewDatabase, type ReviewDatabase } from '../db/open-database';
import { describe, explainOpenError, redactUrl } from './cli-support';

export interface MigrateIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/** The exit codes, as the usage text lists them. */
export const EXIT = {
  /** The schema works with this code: migrations applied, none to apply, or newer and compatible. */
  done: 0,
  /** Settings, the store unreachable, a migration failed (rolled back). */
  failed: 1,
  usage: 2,
  /** The schema is newer than this code and does not work with it (or matches no release). */
  tooNew: 3,
  /** `--check`: migrations to apply. */
  pending: 4,
} as const;

export const USAGE = `Usage: npm run migrate [-- --check]

Applies the review store's pending migrations: those this release has and the database has not
(APP_DATA_DIR, DATABASE_URL: from the environment, or else the repository's .env). Run it once per
release, before starting that release's copies with MIGRATE_ON_START=false; copies of the previous
release keep serving meanwhile (docs/operations.md). Safe to run again, and from several places at
once: one applies, the others wait and find nothing to do.

Options:
  --check   Apply nothing: say whether the schema is current for this code.
  --help    Show this text.

Exit codes: 0 the schema works with this code (migrations applied, none to apply, or newer and still
working with this code: then a warning says so); 1 failed (settings, the store unreachable, a
migration failed: what it did is rolled back); 2 bad arguments; 3 refused: the database's schema is
too new for this code (the message names the release to run); 4 (--check) migrations to apply.
`;

/**
 * One statement of a migration may take this long (an index built on a large table): the store's
 * usual statement time-out (DATABASE_STATEMENT_TIMEOUT_MS) is meant for requests.
 */
const MIGRATION_STATEMENT_TIMEOUT_MS = 60 * 60_000;

export async function runMigrateCommand(argv: string[], io: MigrateIo): Promise<number> {
  let check: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help === true) {
      io.stdout.write(USAGE);
      return EXIT.done;
    }
    check = values.check === true;
  } catch (error) {
    io.stderr.write(`${describe(error)}\n\n${USAGE}`);
    return EXIT.usage;
  }

  let env: Env;
  try {
    env = readEnv(io.env);
  } catch (error) {
    io.stderr.write(`${describe(error)}\n`);
    return EXIT.failed;
  }
  io.stdout.write(`Review store: ${where(env)}\n`);

  let database: ReviewDatabase;
  try {
    database = await openReviewDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.APP_DATA_DIR,
      // One connection does the work; a second for anything else the open needs.
      maxConnections: 2,
      statementTimeoutMs: MIGRATION_STATEMENT_TIMEOUT_MS,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      migrate: !check,
    });
  } catch (error) {
    if (error instanceof SchemaRefusal) {
      io.stderr.write(`${error.message}\n`);
      return error.status.state === 'behind' ? EXIT.pending : EXIT.tooNew;
    }
    io.stderr.write(`${error instanceof MigrationFailed ? error.message : explainOpenError(error, env)}\n`);
    return EXIT.failed;
  }
  try {
    const outcome = schemaOutcome(database);
    if (outcome !== undefined) {
      const { applied, status } = outcome;
      const did = check
        ? ''
        : applied.length === 0
          ? 'Nothing to apply. '
          : `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'}. `;
      io.stdout.write(
        status.state === 'newer'
          ? `${did}The schema is newer than this code and keeps working with it (the warning above).\n`
          : `${did}${describeSchema(status)}\n`,
      );
    }
    return EXIT.done;
  } finally {
    await database.close();
  }
}

function where(env: Env): string {
  return env.DATABASE_URL !== undefined
    ? `PostgreSQL at ${redactUrl(env.DATABASE_URL)}`
    : `embedded, in ${env.APP_DATA_DIR}`;
}
