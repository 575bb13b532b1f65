/**
 * The `documents` admin command (entry: ./documents.ts): `purge` applies each model's retention rule
 * now (store/retention-sweep.ts, through background/retention-purge.ts as a copy's sweep does: under
 * the purge's lease, kept in the purge log the Rules page shows); `purge --dry-run` lists what it
 * would remove, per model, and changes nothing. It names documents by id and decision date only: the
 * tombstone policy (store/document-deletion.ts) keeps file names and values out of every trace.
 *
 * Exit codes: 0 done (or listed), 1 the store could not be opened, another copy is purging, or part
 * of the purge failed (said), 2 bad arguments.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { fileStorageKind, readEnv } from '../../settings/config';
import type { ReviewDatabase } from '../db/open-database';
import { openFileStorage, s3SettingsFromEnv } from '../files/open-file-storage';
import { runPurge } from '../background/retention-purge';
import { PurgeLog } from '../store/purge-log';
import { QueueStore } from '../store/queue-store';
import { retentionRules, type RetentionItem, type RetentionRule } from '../store/retention-sweep';
import {
  describe as describeError,
  Failure,
  helpOrUsage,
  isoTime,
  printable,
  runWithStore,
} from './cli-support';

export interface DocumentsIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** The purge's "now" (tests move it); the system clock otherwise. */
  clock?: Clock;
}

export const USAGE = `Usage: npm run documents -- <command>

Manages the review store's documents (settings from the environment, or else the repository's .env:
APP_DATA_DIR, DATABASE_URL, FILE_STORAGE, S3_*, AWS credentials).

Commands:
  purge [--dry-run]
        Apply each model's retention rule now (Rules page, Retention): remove the kept files and
        delete the confirmed and rejected documents past their days, as the app servers' background
        purge does, and keep the run in the purge log. Runs only while no app-server copy purges.
        --dry-run lists, per model, the documents it would delete and the files it would remove
        (document ids and decision dates), and changes nothing.
  help  Show this text.

Exit codes: 0 done (or listed), 1 the store could not be opened, another copy is purging or part of
the purge failed, 2 bad arguments.
`;

/** The queue store's review lease: never taken here (the purge only reads and deletes). */
const SWEEP_ONLY_LEASE_MS = 600_000;
/** Documents a dry run lists per action (a first run on years of documents: the rest is counted). */
const DRY_RUN_LIMIT = 100_000;

type Parsed = { kind: 'help' } | { kind: 'usage'; message: string } | { kind: 'purge'; dryRun: boolean };

export function parseDocumentsCommand(argv: string[]): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') return { kind: 'help' };
  if (command !== 'purge') return { kind: 'usage', message: `Unknown command: ${command}` };
  try {
    const { values } = parseArgs({
      args: rest,
      options: { 'dry-run': { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    });
    return { kind: 'purge', dryRun: values['dry-run'] === true };
  } catch (error) {
    return { kind: 'usage', message: describeError(error) };
  }
}

export async function runDocumentsCommand(argv: string[], io: DocumentsIo): Promise<number> {
  const parsed = helpOrUsage(parseDocumentsCommand(argv), io, USAGE);
  if (typeof parsed === 'number') return parsed;
  const clock = io.clock ?? systemClock;
  return runWithStore(io, (database) =>
    parsed.dryRun ? dryRun(database, clock, io) : purge(database, clock, io),
  );
}

const modelName = (rule: { apiVersion: string; modelKey: string }) =>
  `${rule.apiVersion} ${printable(rule.modelKey)}`;

function describeRule(rule: RetentionRule): string {
  const parts = [
    rule.filesAfterDays === null ? 'files kept' : `files after ${rule.filesAfterDays} day(s)`,
    rule.documentsAfterDays === null ? 'documents kept' : `documents after ${rule.documentsAfterDays} day(s)`,
  ];
  return parts.join(', ');
}

async function dryRun(database: ReviewDatabase, clock: Clock, io: DocumentsIo): Promise<void> {
  const now = clock.now();
  const queue = new QueueStore(database, SWEEP_ONLY_LEASE_MS);
  const rules = await retentionRules(database.db);
  io.stdout.write(`Retention purge, dry run at ${isoTime(now)}: nothing is changed.\n`);
  if (rules.length === 0) {
    io.stdout.write('No model has a retention rule: nothing would go.\n');
    return;
  }
  const pass = await queue.sweepRetention(now, { dryRun: true, batch: DRY_RUN_LIMIT });
  // A document that would be deleted takes its file with it: not listed twice.
  const deleted = new Set(pass.items.filter((i) => i.action === 'delete_document').map((i) => i.documentId));
  const items = pass.items.filter((i) => i.action === 'delete_document' || !deleted.has(i.documentId));
  let documents = 0;
  let files = 0;
  for (const rule of rules) {
    const mine = items.filter((i) => i.apiVersion === rule.apiVersion && i.model === rule.modelKey);
    const toDelete = mine.filter((i) => i.action === 'delete_document');
    const toRemove = mine.filter((i) => i.action === 'remove_file');
    documents += toDelete.length;
    files += toRemove.length;
    io.stdout.write(`\n${modelName(rule)} (${describeRule(rule)}):\n`);
    if (mine.length === 0) {
      io.stdout.write('  nothing due\n');
      continue;
    }
    writeList(io, `${toDelete.length} document(s) to delete`, toDelete);
    writeList(io, `${toRemove.length} file(s) to remove (the documents stay)`, toRemove);
  }
  io.stdout.write(
    `\nWould delete ${documents} document(s) and remove ${files} file(s)` +
      `${pass.more ? ` (at least: more than ${DRY_RUN_LIMIT} are due, the rest not listed)` : ''}.\n`,
  );
}

function writeList(io: DocumentsIo, title: string, items: RetentionItem[]): void {
  if (items.length === 0) return;
  io.stdout.write(`  ${title}:\n`);
  for (const item of items) io.stdout.write(`    ${item.documentId}  decided ${isoTime(item.decidedAt)}\n`);
}

async function purge(database: ReviewDatabase, clock: Clock, io: DocumentsIo): Promise<void> {
  const env = readEnv(io.env);
  const files = openFileStorage({
    kind: fileStorageKind(env),
    dataDir: env.APP_DATA_DIR,
    database,
    s3: s3SettingsFromEnv(env),
  });
  try {
    const outcome = await runPurge(
      {
        queue: new QueueStore(database, SWEEP_ONLY_LEASE_MS),
        files,
        log: new PurgeLog(database),
        clock,
      },
      { owner: randomUUID(), copy: `npm run documents -- purge on ${hostname()}`, trigger: 'command' },
    );
    if (outcome.busy) throw new Failure('An app-server copy is purging now: run it again in a few minutes.');
    const { run } = outcome;
    io.stdout.write(`Retention purge at ${isoTime(run.startedAt)}:\n`);
    for (const m of run.models)
      io.stdout.write(
        `  ${modelName({ apiVersion: m.apiVersion, modelKey: m.model })}: ` +
          `${m.documentsDeleted} document(s) deleted, ${m.filesRemoved} file(s) removed\n`,
      );
    io.stdout.write(
      `Deleted ${run.documentsDeleted} document(s) and removed ${run.filesRemoved} file(s); ` +
        'tombstones in the audit log, the run in the purge log (Rules page, Retention).\n',
    );
    if (run.errors.length > 0) {
      for (const error of run.errors) io.stdout.write(`  failed: ${error}\n`);
      throw new Failure(`${run.errors.length} part(s) of the purge failed (listed above).`);
    }
  } finally {
    await files.close();
  }
}
