/**
 * Uploaded files, one per job, under `<dataDir>/files/`. An upload is streamed to `<id>.part` and
 * renamed to `<id>` only once the request is valid, so a crash mid-upload leaves nothing a job points
 * to; `init` sweeps such leftovers.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
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

  exists(id: string): boolean {
    return existsSync(this.pathOf(id));
  }
}
