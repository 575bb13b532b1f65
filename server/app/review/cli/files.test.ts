/**
 * `npm run files -- migrate`: every document's file copied from the disk to the database (both
 * engines) or to an S3-compatible server, each checked against its document's size and SHA-256;
 * a file missing from the source and one that is not its document's are reported (exit 1) and not
 * copied; a second run skips what is there and verified and rewrites a copy cut short; arguments are
 * checked (exit 2). Also through the real entry (`tsx server/app/review/cli/files.ts`).
 */
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { DatabaseFileStorage } from '../files/database-file-storage';
import { DiskFileStorage, type KeptFileStorage } from '../files/file-storage';
import { keptFilesDb } from '../db/kept-files-schema';
import { S3FileStorage } from '../files/s3-file-storage';
import { QueueStore } from '../store/queue-store';
import { s3Settings, startS3Server, type S3Server } from '@extraction-review/test-kit/review/s3-server';
import { runFilesCommand } from './files-command';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return Object.assign(stream, { text: () => text });
}

async function run(env: NodeJS.ProcessEnv, argv: string[]) {
  const stdout = capture();
  const stderr = capture();
  const code = await runFilesCommand(argv, { stdout, stderr, env, progressEveryMs: 0 });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const fileOf = (i: number) => Buffer.alloc(300_000 + i * 1000, i + 1);

/** Documents whose files are on disk: three good ones, one missing, one not its document's. */
async function documentsOnDisk(
  store: TestStore,
): Promise<{ good: string[]; missing: string; wrong: string }> {
  const disk = new DiskFileStorage(path.join(store.settings.dataDir, 'files'));
  const queue = new QueueStore(store.database, 600_000);
  const add = async (id: string, bytes: Buffer) =>
    queue.addDocument(
      {
        id,
        apiVersion: 'v2',
        modelKey: 'model-1',
        fileName: `${id}.pdf`,
        upstreamJobId: `job-${id}`,
        fileKey: id,
        fileBytes: bytes.length,
        fileSha256: sha256(bytes),
      },
      Date.now(),
    );
  const good: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = randomUUID();
    await disk.save(id, Readable.from([fileOf(i)]));
    await add(id, fileOf(i));
    good.push(id);
  }
  const missing = randomUUID();
  await add(missing, fileOf(7));
  const wrong = randomUUID();
  await add(wrong, fileOf(8));
  await writeFile(path.join(store.settings.dataDir, 'files', wrong), Buffer.alloc(fileOf(8).length, 0));
  return { good, missing, wrong };
}

async function contentOf(storage: KeptFileStorage, key: string): Promise<string | undefined> {
  const opened = await storage.open(key);
  if (opened === undefined) return undefined;
  const hash = createHash('sha256');
  for await (const chunk of opened.stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe.each(ENGINES)('files migrate --to database on %s', (engine) => {
  let store: TestStore;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    store = await openTestStore(engine);
    env = { APP_DATA_DIR: store.settings.dataDir, DATABASE_URL: store.settings.databaseUrl ?? '' };
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('copies every file, verified, and picks up where it stopped', async () => {
    const { good, missing, wrong } = await documentsOnDisk(store);
    const target = new DatabaseFileStorage(store.database);

    const first = await run(env, ['migrate', '--to', 'database']);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain(`missing in the source: ${missing}`);
    expect(first.stdout).toMatch(new RegExp(`not its document's file: ${wrong} .*SHA-256`));
    expect(first.stdout).toContain('Copied 3 file(s), 0.9 MB, from disk to database; 0 already there');
    expect(first.stdout).toMatch(/\[5\/5\] 3 copied/);
    for (const [i, key] of good.entries()) expect(await contentOf(target, key)).toBe(sha256(fileOf(i)));
    expect(await target.stat(wrong)).toBeUndefined();

    // A copy cut short (as a crash mid-write leaves it, here shortened by hand): written again.
    const [cut = ''] = good;
    await target.remove(cut);
    await target.save(cut, Readable.from([fileOf(0).subarray(0, 1000)]));
    const second = await run(env, ['migrate', '--to', 'database']);
    expect(second.stdout).toContain(
      'Copied 1 file(s), 0.3 MB, from disk to database; 2 already there and verified',
    );
    expect(await contentOf(target, cut)).toBe(sha256(fileOf(0)));
    const writing = await keptFilesDb(store.database)
      .selectFrom('kept_files')
      .select('key')
      .where('state', '=', 'writing')
      .execute();
    expect(writing).toEqual([]);
  });

  it('checks its arguments', async () => {
    expect((await run(env, ['migrate'])).code).toBe(2);
    expect((await run(env, ['migrate', '--to', 'disk'])).stderr).toMatch(/--to must be database or s3/);
    expect((await run(env, ['migrate', '--to', 'database', '--from', 'database'])).code).toBe(2);
    expect((await run(env, ['migrate', '--to', 's3'])).stderr).toMatch(/S3_BUCKET is not set/);
    expect((await run(env, ['copy'])).code).toBe(2);
    expect((await run(env, ['help'])).stdout).toMatch(/^Usage: npm run files/);
  });
});

describe('files migrate --to s3', () => {
  let store: TestStore;
  let server: S3Server;

  beforeAll(async () => {
    store = await openTestStore('sqlite');
    server = await startS3Server();
  });
  afterAll(async () => {
    await server.stop();
    await store.cleanup();
  });

  it('copies into the bucket through the real command, then finds everything there', async () => {
    const { good } = await documentsOnDisk(store);
    const env = {
      ...process.env,
      APP_DATA_DIR: store.settings.dataDir,
      DATABASE_URL: '',
      S3_BUCKET: server.bucket,
      S3_ENDPOINT: server.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: server.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    };
    const runEntry = async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'server/app/review/cli/files.ts', 'migrate', '--to', 's3'],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const [code] = (await once(child, 'exit')) as [number];
      return { code, out };
    };
    const first = await runEntry();
    expect(first.out).toContain('Copied 3 file(s), 0.9 MB, from disk to s3; 0 already there');
    expect(first.code).toBe(1); // the missing and the wrong file
    const bucket = new S3FileStorage(s3Settings(server));
    try {
      for (const [i, key] of good.entries()) expect(await contentOf(bucket, key)).toBe(sha256(fileOf(i)));
    } finally {
      await bucket.close();
    }
    const second = await runEntry();
    expect(second.out).toContain('Copied 0 file(s), 0.0 MB, from disk to s3; 3 already there and verified');
  }, 60_000);
});
