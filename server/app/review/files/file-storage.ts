/**
 * Where the review store keeps documents' files: a small interface with three backends chosen by
 * FILE_STORAGE (open-file-storage.ts): on disk under APP_DATA_DIR/files (`disk`, this file: one machine,
 * or copies sharing a folder), in the review store itself (`database`, database-file-storage.ts: every
 * copy of one PostgreSQL reads them), or in an S3-compatible bucket (`s3`, s3-file-storage.ts). Keys
 * are the documents' ids (UUIDs), never a name a client chose.
 *
 * What every backend promises: `save` resolves only once the file is durable, and a file is visible
 * (open) only whole: a stream cut short leaves nothing that opens, and what it did leave is removed by
 * the sweep (`sweepOrphans`, run at start: orphan-files.ts), as are kept files no document names.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReviewDatabase } from '../db/open-database';
import { makerOf, parsePart, partName, THIS_PROCESS } from './process-mark';
import { unnamedKeys } from './unnamed-keys';

export interface StoredFile {
  bytes: number;
  sha256: string;
}

export type FileStorageKind = 'disk' | 'database' | 's3';

/** What the intake, the import and the routes use. */
export interface FileStorage {
  /**
   * Writes the whole stream under `key` (replacing nothing: keys are new). Resolves once the file is
   * durable; a failed or cut-short save leaves nothing that opens.
   */
  save(key: string, source: Readable): Promise<StoredFile>;
  /** The file's bytes, or undefined when there is none under `key`. */
  open(key: string): Promise<{ stream: Readable; bytes: number } | undefined>;
  remove(key: string): Promise<void>;
  /**
   * Readiness (/api/health/ready): writes and removes a tiny probe, throwing when the storage cannot be
   * written. Optional only so that tests may hand in a storage of three functions.
   */
  check?(): Promise<void>;
}

/** What the swept storage removed. */
export interface StorageSweep {
  /** Kept files no document names. */
  files: number;
  /** Writes cut short (`.part` files, `writing` files in the database). */
  parts: number;
  bytes: number;
}

export interface StorageSweepOptions {
  database: ReviewDatabase;
  /** The wall clock's time (file times are the wall clock's). */
  now: number;
  /** Files younger than this are left (another copy may be about to write their document's row). */
  graceMs: number;
}

/** A backend as openFileStorage gives it: the interface, and what operations and the sweep need. */
export interface KeptFileStorage extends FileStorage {
  readonly kind: FileStorageKind;
  check(): Promise<void>;
  /** The size (and SHA-256 where the backend keeps it) of a whole file, without reading it. */
  stat(key: string): Promise<{ bytes: number; sha256?: string | undefined } | undefined>;
  /** Removes, past the grace, kept files no document names, and the leftovers of writes cut short. */
  sweepOrphans(options: StorageSweepOptions): Promise<StorageSweep>;
  /** Releases what the backend holds (connections); never the files. */
  close(): Promise<void>;
}

/** A file's name in the store: its key. */
export const FILE_KEY = /^[0-9a-f-]{36}$/;

export function assertFileKey(key: string): void {
  if (!FILE_KEY.test(key)) throw new Error(`not a file key: ${key}`);
}

/** Counts and hashes what passes through it. */
export function measuring(): { through: Transform; result: () => StoredFile } {
  const hash = createHash('sha256');
  let bytes = 0;
  const through = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { through, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

export class DiskFileStorage implements KeptFileStorage {
  readonly kind = 'disk';
  private ready: Promise<void> | undefined;

  constructor(readonly dir: string) {}

  private init(): Promise<void> {
    // Writes cut off by a stop leave `.part` files: the sweep removes those of gone processes of this
    // machine (process-mark.ts), never here at start: another copy sharing the folder may be writing.
    // A failure is not kept: the next save tries again (the folder made meanwhile, a disk remounted).
    return (this.ready ??= mkdir(this.dir, { recursive: true }).then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined;
        throw error;
      },
    ));
  }

  private pathOf(key: string): string {
    assertFileKey(key);
    return path.join(this.dir, key);
  }

  async save(key: string, source: Readable): Promise<StoredFile> {
    await this.init();
    const target = this.pathOf(key);
    const part = path.join(this.dir, partName(key));
    const measure = measuring();
    try {
      await pipeline(source, measure.through, createWriteStream(part, { flags: 'wx' }));
      // Durable before it is renamed into place, and the rename durable before save resolves: a
      // power cut then leaves the whole file or a `.part`, never a key naming a short file.
      await syncFile(part);
      await rename(part, target);
      await syncFile(this.dir);
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
    return measure.result();
  }

  async open(key: string): Promise<{ stream: Readable; bytes: number } | undefined> {
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      return { stream: createReadStream(file), bytes: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async stat(key: string): Promise<{ bytes: number } | undefined> {
    try {
      return { bytes: (await stat(this.pathOf(key))).size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async check(): Promise<void> {
    // Made again if it went (an operator's clean-up, a volume remounted), as a save would need it.
    await mkdir(this.dir, { recursive: true });
    const probe = path.join(this.dir, `.probe.${THIS_PROCESS.host}.${THIS_PROCESS.pid}`);
    const handle = await open(probe, 'w');
    try {
      await handle.writeFile('ok');
      await handle.sync();
    } finally {
      await handle.close();
      await rm(probe, { force: true });
    }
  }

  async sweepOrphans(options: StorageSweepOptions): Promise<StorageSweep> {
    const swept: StorageSweep = { files: 0, parts: 0, bytes: 0 };
    const before = options.now - options.graceMs;
    const keys: { name: string; size: number }[] = [];
    for (const entry of await oldEntries(this.dir, before)) {
      if (FILE_KEY.test(entry.name)) keys.push(entry);
      else if (
        entry.name.endsWith('.part') &&
        partIsOurs(entry.name) &&
        (await removeEntry(this.dir, entry, swept))
      )
        swept.parts++;
    }
    for await (const unnamed of unnamedKeys(options.database, keys, (entry) => entry.name))
      for (const entry of unnamed) if (await removeEntry(this.dir, entry, swept)) swept.files++;
    return swept;
  }

  async close(): Promise<void> {}
}

/**
 * A `.part` this process may remove: one of a process of this machine that is gone. Never one of a
 * living process (this one's own are removed by their save), of another machine, or of a name this
 * code does not make (an older release's parts: their maker cannot be told, so an operator removes
 * them; docs/review-store.md).
 */
function partIsOurs(name: string): boolean {
  const part = parsePart(name);
  return part !== undefined && makerOf(part.mark) === 'gone';
}

/**
 * fsync of a file, or of a folder: its entries (a rename) durable. Some file systems cannot sync a
 * folder (EINVAL): nothing more can be done there.
 */
async function syncFile(file: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    await handle.sync();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
  } finally {
    await handle?.close();
  }
}

/** The plain files of `dir` last written before `before`; none if there is no such folder yet. */
export async function oldEntries(dir: string, before: number): Promise<{ name: string; size: number }[]> {
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

export async function removeEntry(
  dir: string,
  entry: { name: string; size: number },
  swept: { bytes: number },
): Promise<boolean> {
  try {
    await rm(path.join(dir, entry.name));
  } catch {
    return false; // another copy's sweep got there first
  }
  swept.bytes += entry.size;
  return true;
}
