/**
 * The `files` admin command (entry: ./files.ts): `migrate` copies every kept file of the review store's
 * documents from one file storage to another (FILE_STORAGE: disk, database, s3), so that a deployment
 * can move its files when it goes from one machine to several (docs/review-store.md, "Where files are
 * kept"). It reads the server's own settings (APP_DATA_DIR, DATABASE_URL, S3_*, the AWS credentials).
 *
 * Each file is checked against its document's row: the copy's size and SHA-256 must be the ones the
 * intake measured, or it is removed again and reported. It is resumable: a file already in the target
 * with the right size and SHA-256 is skipped (read back to hash it where the target does not keep the
 * hash), one there but wrong or cut short is written again. Nothing is removed from the source.
 *
 * Exit codes: 0 every file is in the target, 1 some could not be copied (missing in the source, not
 * matching its document, an error) or the store could not be opened, 2 bad arguments.
 */
import { createHash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { readEnv, type Env } from '../../settings/config';
import type { ReviewDatabase } from '../db/open-database';
import type { FileStorageKind, KeptFileStorage } from '../files/file-storage';
import { openFileStorage, s3SettingsFromEnv } from '../files/open-file-storage';
import { describe as describeError, Failure, helpOrUsage, runWithStore } from './cli-support';
import { countDocumentsWithFiles, listKeptFilesPage } from '../store/queue-store';

export interface FilesIo {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** Progress at most this often (default 5 s); tests set 0 for a line per file. */
  progressEveryMs?: number;
}

export const USAGE = `Usage: npm run files -- <command>

Manages the files the review store keeps for its documents (settings from the environment, or else
the repository's .env: APP_DATA_DIR, DATABASE_URL, FILE_STORAGE, S3_*, AWS credentials).

Commands:
  migrate --to database|s3 [--from disk|database|s3]
        Copy every document's file from one storage (default: disk, APP_DATA_DIR/files) to another,
        each checked against the size and SHA-256 its document recorded. Resumable: files already
        copied and verified are skipped. Nothing is removed from the source. Then set FILE_STORAGE
        to the target on every app-server copy, restart them, and run it once more to copy what
        arrived meanwhile.
  help  Show this text.

Exit codes: 0 every file copied or already there, 1 some could not be (listed), 2 bad arguments.
`;

const KINDS = ['disk', 'database', 's3'] as const;
/** Documents read from the store at once. */
const PAGE = 200;

type Parsed =
  | { kind: 'help' }
  | { kind: 'usage'; message: string }
  | { kind: 'migrate'; from: FileStorageKind; to: FileStorageKind };

export function parseFilesCommand(argv: string[]): Parsed {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') return { kind: 'help' };
  if (command !== 'migrate') return { kind: 'usage', message: `Unknown command: ${command}` };
  let values: { from?: string | undefined; to?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { from: { type: 'string' }, to: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'usage', message: describeError(error) };
  }
  const isKind = (value: string | undefined): value is FileStorageKind =>
    (KINDS as readonly string[]).includes(value ?? '');
  const from = values.from ?? 'disk';
  if (values.to === undefined) return { kind: 'usage', message: 'migrate needs --to database or --to s3' };
  if (!isKind(values.to) || values.to === 'disk')
    return { kind: 'usage', message: `--to must be database or s3, not ${values.to}` };
  if (!isKind(from)) return { kind: 'usage', message: `--from must be disk, database or s3, not ${from}` };
  if (from === values.to) return { kind: 'usage', message: `--from and --to are both ${from}` };
  return { kind: 'migrate', from, to: values.to };
}

export async function runFilesCommand(argv: string[], io: FilesIo): Promise<number> {
  const parsed = helpOrUsage(parseFilesCommand(argv), io, USAGE);
  if (typeof parsed === 'number') return parsed;
  let env: Env;
  try {
    env = readEnv(io.env);
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n`);
    return 1;
  }
  if ((parsed.from === 's3' || parsed.to === 's3') && env.S3_BUCKET === undefined) {
    io.stderr.write('S3_BUCKET is not set: name the bucket (and S3_ENDPOINT for a store other than AWS).\n');
    return 2;
  }
  return runWithStore(io, (database) => migrate(database, env, parsed.from, parsed.to, io));
}

export interface MigrationSummary {
  total: number;
  copied: number;
  copiedBytes: number;
  verified: number;
  missing: string[];
  mismatched: string[];
  failed: string[];
}

async function migrate(
  database: ReviewDatabase,
  env: Env,
  fromKind: FileStorageKind,
  toKind: FileStorageKind,
  io: FilesIo,
): Promise<void> {
  const open = (kind: FileStorageKind) =>
    openFileStorage({ kind, dataDir: env.APP_DATA_DIR, database, s3: s3SettingsFromEnv(env) });
  const from = open(fromKind);
  const to = open(toKind);
  try {
    const summary = await copyAll(database, from, to, io);
    const mb = (summary.copiedBytes / (1024 * 1024)).toFixed(1);
    io.stdout.write(
      `Copied ${summary.copied} file(s), ${mb} MB, from ${fromKind} to ${toKind}; ` +
        `${summary.verified} already there and verified; ${summary.missing.length} missing in ${fromKind}; ` +
        `${summary.mismatched.length} not matching their document; ${summary.failed.length} failed ` +
        `(${summary.total} document(s) with a file).\n`,
    );
    const left = summary.missing.length + summary.mismatched.length + summary.failed.length;
    if (left > 0)
      throw new Failure(`${left} file(s) are not in ${toKind} (listed above). Run it again once fixed.`);
    io.stdout.write(`Every file is in ${toKind}: set FILE_STORAGE=${toKind} on every app-server copy.\n`);
  } finally {
    await from.close();
    await to.close();
  }
}

export async function copyAll(
  database: ReviewDatabase,
  from: KeptFileStorage,
  to: KeptFileStorage,
  io: Pick<FilesIo, 'stdout' | 'progressEveryMs'>,
): Promise<MigrationSummary> {
  const summary: MigrationSummary = {
    total: Number(await countDocumentsWithFiles(database.db)),
    copied: 0,
    copiedBytes: 0,
    verified: 0,
    missing: [],
    mismatched: [],
    failed: [],
  };
  const every = io.progressEveryMs ?? 5_000;
  // The progress lines' pace: a log's, on the system clock (nothing is decided or stored by it).
  let done = 0;
  let lastLine = Date.now();
  let after = '';
  for (;;) {
    // By file key, the files of several documents (an import's) counted once each time they appear.
    const page = await listKeptFilesPage(database.db, after, PAGE);
    for (const row of page) {
      const key = row.file_key ?? '';
      const expected = { bytes: row.file_bytes, sha256: row.file_sha256 };
      try {
        const outcome = await copyOne(key, expected, from, to);
        if (outcome.kind === 'verified') summary.verified += 1;
        else if (outcome.kind === 'copied') {
          summary.copied += 1;
          summary.copiedBytes += outcome.bytes;
        } else if (outcome.kind === 'missing') {
          summary.missing.push(key);
          io.stdout.write(`  missing in the source: ${key} (document ${row.id})\n`);
        } else {
          summary.mismatched.push(key);
          io.stdout.write(`  not its document's file: ${key} (document ${row.id}): ${outcome.detail}\n`);
        }
      } catch (error) {
        summary.failed.push(key);
        io.stdout.write(`  failed: ${key} (document ${row.id}): ${describeError(error)}\n`);
      }
      done += 1;
      if (Date.now() - lastLine >= every) {
        lastLine = Date.now();
        io.stdout.write(
          `[${done}/${summary.total}] ${summary.copied} copied (${(summary.copiedBytes / (1024 * 1024)).toFixed(1)} MB), ` +
            `${summary.verified} already there\n`,
        );
      }
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) break;
    after = last.file_key ?? after;
  }
  return summary;
}

type Outcome =
  | { kind: 'verified' }
  | { kind: 'copied'; bytes: number }
  | { kind: 'missing' }
  | { kind: 'mismatched'; detail: string };

async function copyOne(
  key: string,
  expected: { bytes: number | null; sha256: string | null },
  from: KeptFileStorage,
  to: KeptFileStorage,
): Promise<Outcome> {
  const there = await to.stat(key);
  if (there !== undefined) {
    if (await matches(key, there, expected, to)) return { kind: 'verified' };
    await to.remove(key); // cut short or not this document's: written again below
  }
  const opened = await from.open(key);
  if (opened === undefined) return { kind: 'missing' };
  const saved = await to.save(key, opened.stream);
  const wrong = difference(saved, expected);
  if (wrong !== undefined) {
    await to.remove(key);
    return { kind: 'mismatched', detail: wrong };
  }
  return { kind: 'copied', bytes: saved.bytes };
}

/** Whether the target's copy is the document's file: its size, then its SHA-256 (read if need be). */
async function matches(
  key: string,
  there: { bytes: number; sha256?: string | undefined },
  expected: { bytes: number | null; sha256: string | null },
  to: KeptFileStorage,
): Promise<boolean> {
  if (expected.bytes !== null && there.bytes !== expected.bytes) return false;
  if (expected.sha256 === null) return expected.bytes !== null;
  if (there.sha256 !== undefined) return there.sha256 === expected.sha256;
  const opened = await to.open(key);
  return opened !== undefined && (await sha256Of(opened.stream)) === expected.sha256;
}

function difference(
  saved: { bytes: number; sha256: string },
  expected: { bytes: number | null; sha256: string | null },
): string | undefined {
  if (expected.bytes !== null && saved.bytes !== expected.bytes)
    return `${saved.bytes} bytes, its document says ${expected.bytes}`;
  if (expected.sha256 !== null && saved.sha256 !== expected.sha256)
    return `SHA-256 ${saved.sha256}, its document says ${expected.sha256}`;
  return undefined;
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
