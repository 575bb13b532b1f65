/**
 * Files left behind by documents that never entered the store (issue 18: "files are left orphaned
 * after a crash"), removed at start. A document's file is written before the document's row: the
 * upload's copy goes into the file store while it streams upstream, and the row is added once the
 * upstream has taken it (intake/upload-recorder.ts; an import likewise). A stop between the two leaves
 * a file no row names, for ever; a write cut short leaves a `.part`; a JSON body waiting for the
 * upstream's answer leaves its copy in `incoming/`.
 *
 * Only what is older than the grace period is touched (an hour by default, ORPHAN_GRACE_MS): another
 * app-server copy sharing APP_DATA_DIR may be writing an upload this very moment, or about to add its
 * row (a v1 synchronous prediction may take minutes), and its files are younger than that. A file is
 * an orphan when no document's `file_key` names it, asked of the store in batches, so memory stays
 * small whatever the number of files. Names the store never makes (not a key, not a `.part`, not a
 * `.body`) are left alone.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReviewDatabase } from '../db/open-database';
import { FILE_KEY } from './file-storage';

export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/** Keys asked of the store at once: well under SQLite's and PostgreSQL's parameter limits. */
const BATCH = 500;

export interface OrphanSweep {
  /** Kept files no document names. */
  files: number;
  /** Writes cut short (`.part`) in the file store. */
  parts: number;
  /** Request copies left in `incoming/`. */
  incoming: number;
  /** Their size in all. */
  bytes: number;
}

export interface SweepOptions {
  database: ReviewDatabase;
  /** APP_DATA_DIR/files */
  filesDir: string;
  /** APP_DATA_DIR/incoming */
  incomingDir: string;
  now: number;
  graceMs?: number;
}

export async function sweepOrphanFiles(options: SweepOptions): Promise<OrphanSweep> {
  const before = options.now - (options.graceMs ?? ORPHAN_GRACE_MS);
  const swept: OrphanSweep = { files: 0, parts: 0, incoming: 0, bytes: 0 };

  const keys: { name: string; size: number }[] = [];
  for (const entry of await oldEntries(options.filesDir, before)) {
    if (FILE_KEY.test(entry.name)) keys.push(entry);
    else if (entry.name.endsWith('.part') && (await remove(options.filesDir, entry, swept))) swept.parts++;
  }
  for (let i = 0; i < keys.length; i += BATCH) {
    const batch = keys.slice(i, i + BATCH);
    const named = await options.database.db
      .selectFrom('documents')
      .select('file_key')
      .where(
        'file_key',
        'in',
        batch.map((entry) => entry.name),
      )
      .execute();
    const kept = new Set(named.map((row) => row.file_key));
    for (const entry of batch)
      if (!kept.has(entry.name) && (await remove(options.filesDir, entry, swept))) swept.files++;
  }

  for (const entry of await oldEntries(options.incomingDir, before))
    if (entry.name.endsWith('.body') && (await remove(options.incomingDir, entry, swept))) swept.incoming++;
  return swept;
}

/** The plain files of `dir` last written before `before`; none if there is no such folder yet. */
async function oldEntries(dir: string, before: number): Promise<{ name: string; size: number }[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const old: { name: string; size: number }[] = [];
  for (const name of names) {
    try {
      const info = await stat(path.join(dir, name));
      if (info.mtimeMs < before) old.push({ name, size: info.size });
    } catch {
      // Gone meanwhile (another copy's rename or sweep): nothing to do.
    }
  }
  return old;
}

async function remove(
  dir: string,
  entry: { name: string; size: number },
  swept: OrphanSweep,
): Promise<boolean> {
  try {
    await rm(path.join(dir, entry.name));
  } catch {
    return false; // another copy's sweep got there first
  }
  swept.bytes += entry.size;
  return true;
}

/** The sweep's one line for the start-up log, or undefined when there was nothing to remove. */
export function describeSweep(swept: OrphanSweep): string | undefined {
  const total = swept.files + swept.parts + swept.incoming;
  if (total === 0) return undefined;
  const mb = (swept.bytes / (1024 * 1024)).toFixed(1);
  return (
    `[review files] removed ${total} orphaned file(s), ${mb} MB: ${swept.files} kept file(s) of documents ` +
    `that never entered the store, ${swept.parts} unfinished write(s), ${swept.incoming} request cop(ies) in incoming/`
  );
}
