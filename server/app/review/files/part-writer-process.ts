/**
 * For orphan-parts.test.ts: another process writing a file into a shared folder and never finishing
 * (an upload in flight). Saves `<key>` under `<dir>` from a stream that sends 64 KiB and then waits,
 * prints the `.part`'s name as one JSON line once it is on disk, and lives until it is killed.
 *
 *   node --import tsx server/app/review/files/part-writer-process.ts <dir> <key>
 */
import { readdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { DiskFileStorage } from './file-storage';

const [dir, key] = process.argv.slice(2);
if (dir === undefined || key === undefined) throw new Error('usage: part-writer-process.ts <dir> <key>');
const body = new Readable({ read() {} });
body.push(Buffer.alloc(64 * 1024, 5));
void new DiskFileStorage(dir).save(key, body);
for (;;) {
  const part = (await readdir(dir).catch(() => [] as string[])).find((name) => name.startsWith(`${key}.`));
  if (part !== undefined) {
    process.stdout.write(`${JSON.stringify({ part, pid: process.pid })}\n`);
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 10));
}
// Alive, writing, until killed.
setInterval(() => undefined, 60_000);
