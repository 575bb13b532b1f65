/**
 * Files left behind by documents that never entered the store (issue 18: "files are left orphaned
 * after a crash"), removed at start, in whichever storage keeps them (FILE_STORAGE). A document's file
 * is written before the document's row: the upload's copy goes into the storage while it streams
 * upstream, and the row is added once the upstream has taken it (intake/upload-recorder.ts; an import
 * likewise). A stop between the two leaves a file no row names; a write cut short leaves a `.part` on
 * disk or a `writing` file in the database; a JSON body waiting for the upstream's answer leaves its
 * copy in `incoming/`.
 *
 * Kept files no document names, and request copies, are touched only once older than the grace
 * period (an hour by default, ORPHAN_GRACE_MS): another app-server copy may be about to add their row
 * (a v1 synchronous prediction may take minutes). Writes cut short are removed only when their maker
 * is known to be gone: a `.part` names its process (process-mark.ts) and only one of a gone process of
 * this machine is removed; a database file being written has a heartbeat (database-file-storage.ts).
 * Each backend's `sweepOrphans` does its part; names the store never makes are left alone.
 */
import path from 'node:path';
import type { ReviewDatabase } from '../db/open-database';
import { DiskFileStorage, oldEntries, removeEntry, type KeptFileStorage } from './file-storage';

export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface OrphanSweep {
  /** Kept files no document names. */
  files: number;
  /** Writes cut short: `.part` files of gone processes, stale `writing` files in the database. */
  parts: number;
  /** Request copies left in `incoming/`. */
  incoming: number;
  /** Their size in all. */
  bytes: number;
}

export interface SweepOptions {
  database: ReviewDatabase;
  /** The storage swept; default the disk storage of `filesDir`. */
  files?: KeptFileStorage;
  /** APP_DATA_DIR/files, when `files` is not given. */
  filesDir?: string;
  /** APP_DATA_DIR/incoming: always on this machine's disk. */
  incomingDir: string;
  now: number;
  graceMs?: number;
}

export async function sweepOrphanFiles(options: SweepOptions): Promise<OrphanSweep> {
  const graceMs = options.graceMs ?? ORPHAN_GRACE_MS;
  const files =
    options.files ?? (options.filesDir !== undefined ? new DiskFileStorage(options.filesDir) : undefined);
  const stored = (await files?.sweepOrphans({ database: options.database, now: options.now, graceMs })) ?? {
    files: 0,
    parts: 0,
    bytes: 0,
  };
  const swept: OrphanSweep = { ...stored, incoming: 0 };
  for (const entry of await oldEntries(options.incomingDir, options.now - graceMs))
    if (entry.name.endsWith('.body') && (await removeEntry(options.incomingDir, entry, swept)))
      swept.incoming++;
  return swept;
}

/** APP_DATA_DIR/incoming: the request copies of JSON uploads waiting for the upstream's answer. */
export const incomingDirOf = (dataDir: string): string => path.join(dataDir, 'incoming');

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
