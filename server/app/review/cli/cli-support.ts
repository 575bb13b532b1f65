/**
 * What the admin commands share (`npm run operators`, `npm run integrations`): refusals with their exit
 * code, tables, names and times as printed, the repository's .env, and the review store opened with a
 * one-line explanation when it cannot be (never a password).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { readEnv, repoRoot, type Env } from '../../settings/config';
import { openReviewDatabase, type ReviewDatabase } from '../db/open-database';

/** The repository's .env, as the server reads it (server/main.ts): the environment itself wins. */
export function loadDotEnv(): boolean {
  const envFile = path.join(repoRoot, '.env');
  try {
    if (existsSync(envFile)) process.loadEnvFile(envFile);
    return true;
  } catch (error) {
    console.error(`Cannot read ${envFile}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

/** A refusal with its message (on stderr) and exit code; anything else thrown is unexpected. */
export class Failure extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Columns padded to their widest cell, two spaces apart, no trailing spaces. */
export function table(header: string[], rows: string[][]): string {
  const lines = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column]?.length ?? 0)));
  return lines
    .map((line) =>
      line
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

/** A name as typed, unless it holds control characters, which would break the line (then quoted). */
export const printable = (name: string): string => (/\p{Cc}/u.test(name) ? JSON.stringify(name) : name);

/** Quoted, with any control character escaped. */
export const quote = (name: string): string => JSON.stringify(name);

/** ISO 8601 to the second, in UTC. */
export const isoTime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One line that says where the store is and why it could not be opened (never a password). */
export function explainOpenError(error: unknown, env: Env): string {
  const where =
    env.DATABASE_URL !== undefined
      ? `the PostgreSQL database of DATABASE_URL (${redactUrl(env.DATABASE_URL)})`
      : `the embedded database in APP_DATA_DIR (${env.APP_DATA_DIR})`;
  const hint =
    env.DATABASE_URL !== undefined
      ? 'Check DATABASE_URL and that the PostgreSQL server is running and reachable.'
      : 'Check APP_DATA_DIR, or set DATABASE_URL to use PostgreSQL.';
  // The migrator wraps the driver's error ("migration unknown failed: …"): the cause says it plainly.
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const reason = describe(cause)
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\.$/, '');
  return `Cannot open the review store, ${where}: ${reason}. ${hint}`;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return 'not a URL';
  }
}

/** An error's message; an AggregateError without one (every address of a name refused) lists its own. */
export function describe(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    return error.errors.map(describe).join('; ');
  }
  if (!(error instanceof Error)) return String(error);
  return error.message || String((error as { code?: unknown }).code ?? error.name);
}

/**
 * Reads the server's settings, opens the review store they name, runs `work` on it and closes it:
 * the exit code (0 done; a Failure's own code; 1 for anything else), the error on stderr.
 */
/**
 * A command's answer to `help` and to arguments it cannot read: the exit code (0, or 2 with the
 * complaint and the usage on stderr), or else what it is to run.
 */
export function helpOrUsage<P extends { kind: string }>(
  parsed: P | { kind: 'help' } | { kind: 'usage'; message: string },
  io: { stdout: Writable; stderr: Writable },
  usage: string,
): number | Exclude<P, { kind: 'help' } | { kind: 'usage' }> {
  if (parsed.kind === 'help') {
    io.stdout.write(usage);
    return 0;
  }
  if (parsed.kind === 'usage' && 'message' in parsed) {
    io.stderr.write(`${parsed.message}\n\n${usage}`);
    return 2;
  }
  return parsed as Exclude<P, { kind: 'help' } | { kind: 'usage' }>;
}

export async function runWithStore(
  io: { stderr: Writable; env: NodeJS.ProcessEnv },
  work: (database: ReviewDatabase) => Promise<void>,
): Promise<number> {
  let env: Env;
  try {
    env = readEnv(io.env);
  } catch (error) {
    io.stderr.write(`${describe(error)}\n`);
    return 1;
  }
  let database: ReviewDatabase;
  try {
    database = await openReviewDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.APP_DATA_DIR,
      // One statement at a time: a pool of the server's size would only hold connections.
      maxConnections: 2,
      // The command's stdout is its answer (scripts read it): what the store did goes to stderr.
      report: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (error) {
    io.stderr.write(`${explainOpenError(error, env)}\n`);
    return 1;
  }
  try {
    await work(database);
    return 0;
  } catch (error) {
    io.stderr.write(`${describe(error)}\n`);
    return error instanceof Failure ? error.exitCode : 1;
  } finally {
    await database.close();
  }
}
