/**
 * Uploaded files, one per job, under `<dataDir>/files/`. An upload is streamed to `<id>.part` and
 * renamed to `<id>` only once the request is valid, so a crash mid-upload leaves nothing a job points
 * to; `init` sweeps such leftovers.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export class FileStore {
  constructor(readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const leftovers = (await readdir(this.dir)).filter((name) => name.endsWith('.part'));
    await Promise.all(leftovers.map((name) => rm(path.join(this.dir, name), { force: true })));
  }

  partPath(id: string): string {
    return path.join(this.dir, `${id}.part`);
  }

  pathOf(id: string): string {
    return path.join(this.dir, id);
  }

  async commit(id: string): Promise<void> {
    await rename(this.partPath(id), this.pathOf(id));
  }

  async discard(id: string): Promise<void> {
    await rm(this.partPath(id), { force: true });
  }

  /** Writes a whole upload (a decoded `file_base64`) to its part file. */
  async writePart(id: string, bytes: Uint8Array): Promise<void> {
    await writeFile(this.partPath(id), bytes);
  }

  /** Removes a committed upload (its data was deleted after being fetched). */
  async remove(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }

  exists(id: string): boolean {
    return existsSync(this.pathOf(id));
  }
}
