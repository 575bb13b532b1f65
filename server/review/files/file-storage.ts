/**
 * Where the review store keeps documents' files: a small interface, so that a deployment can put them
 * elsewhere (an object store) without touching the rest; on disk under APP_DATA_DIR/files by default.
 * Keys are the documents' ids (UUIDs), never a name a client chose. What a stop or a crash leaves
 * behind (files of documents that never entered the store, unfinished `.part` writes) is removed at
 * start, once older than a grace period (orphan-files.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

export interface StoredFile {
  bytes: number;
  sha256: string;
}

export interface FileStorage {
  /** Writes the whole stream under `key` (replacing nothing: keys are new); atomic. */
  save(key: string, source: Readable): Promise<StoredFile>;
  /** The file's bytes, or undefined when there is none under `key`. */
  open(key: string): Promise<{ stream: Readable; bytes: number } | undefined>;
  remove(key: string): Promise<void>;
}

/** A file's name in the store: its key. */
export const FILE_KEY = /^[0-9a-f-]{36}$/;

export class DiskFileStorage implements FileStorage {
  private ready: Promise<void> | undefined;

  constructor(readonly dir: string) {}

  private init(): Promise<void> {
    // Writes cut off by a stop leave `.part` files: the start's sweep removes them once they are old
    // enough (orphan-files.ts), not here: another copy sharing the folder may be writing one now.
    return (this.ready ??= mkdir(this.dir, { recursive: true }).then(() => undefined));
  }

  private pathOf(key: string): string {
    if (!FILE_KEY.test(key)) throw new Error(`not a file key: ${key}`);
    return path.join(this.dir, key);
  }

  async save(key: string, source: Readable): Promise<StoredFile> {
    await this.init();
    const target = this.pathOf(key);
    const part = path.join(this.dir, `${key}.${randomUUID()}.part`);
    const hash = createHash('sha256');
    let bytes = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(source, measure, createWriteStream(part, { flags: 'wx' }));
      await rename(part, target);
    } catch (error) {
      await rm(part, { force: true });
      throw error;
    }
    return { bytes, sha256: hash.digest('hex') };
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

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
