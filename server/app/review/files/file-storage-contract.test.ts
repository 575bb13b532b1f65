/**
 * What every FILE_STORAGE backend promises (file-storage.ts), against the real thing: the disk, the
 * review store on both engines (`database`), and an S3-compatible server on 127.0.0.1 (`s3`,
 * testing/s3-server.ts). A file saved is read back byte for byte with its size and SHA-256; a stream
 * cut short leaves nothing that opens, nor anything behind (no `.part`, no rows, no multipart parts);
 * saves at once do not mix; `check` writes; the sweep removes what no document names once past the
 * grace and leaves documents' files.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { ReviewDatabase } from '../db/open-database';
import { QueueStore } from '../store/queue-store';
import { s3Settings, startS3Server, type S3Server } from '@extraction-review/test-kit/review/s3-server';
import { DatabaseFileStorage } from './database-file-storage';
import { DiskFileStorage, type KeptFileStorage } from './file-storage';
import { keptFilesDb } from '../db/kept-files-schema';
import { ORPHAN_GRACE_MS } from './orphan-files';
import { S3FileStorage } from './s3-file-storage';

interface Backend {
  storage: KeptFileStorage;
  /** The store whose documents name files (the sweep asks it). */
  database: ReviewDatabase;
  /** Whatever a write leaves behind, by name: `.part`s, `writing` rows, multipart uploads. */
  leftovers(): Promise<number>;
  cleanup(): Promise<void>;
}

const MiB = 1024 * 1024;

const BACKENDS: Record<string, () => Promise<Backend>> = {
  disk: async () => {
    const store = await openTestStore('sqlite');
    const dir = path.join(store.settings.dataDir, 'files');
    return {
      storage: new DiskFileStorage(dir),
      database: store.database,
      leftovers: async () => (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.part')).length,
      cleanup: () => store.cleanup(),
    };
  },
  'database on sqlite': () => databaseBackend('sqlite'),
  'database on postgres': () => databaseBackend('postgres'),
  s3: async () => {
    const server: S3Server = await startS3Server();
    const store = await openTestStore('sqlite');
    const storage = new S3FileStorage(s3Settings(server));
    return {
      storage,
      database: store.database,
      leftovers: () => server.pendingUploads(),
      cleanup: async () => {
        await storage.close();
        await server.stop();
        await store.cleanup();
      },
    };
  },
};

async function databaseBackend(engine: 'sqlite' | 'postgres'): Promise<Backend> {
  const store: TestStore = await openTestStore(engine);
  return {
    storage: new DatabaseFileStorage(store.database),
    database: store.database,
    leftovers: async () =>
      (
        await keptFilesDb(store.database)
          .selectFrom('kept_files')
          .select('key')
          .where('state', '=', 'writing')
          .execute()
      ).length +
      (
        await keptFilesDb(store.database)
          .selectFrom('kept_file_chunks')
          .select('file_key')
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('kept_files')
                  .select('key')
                  .whereRef('kept_files.key', '=', 'kept_file_chunks.file_key'),
              ),
            ),
          )
          .execute()
      ).length,
    cleanup: () => store.cleanup(),
  };
}

/** `bytes` of a pattern that differs per `seed`, in 64 KiB pieces, and their SHA-256. */
function content(bytes: number, seed: number): { stream: () => Readable; sha256: string } {
  const piece = (at: number) => {
    const chunk = Buffer.alloc(Math.min(64 * 1024, bytes - at));
    for (let i = 0; i + 4 <= chunk.length; i += 4)
      chunk.writeUInt32LE(((at + i) * 2654435761 + seed) >>> 0, i);
    return chunk;
  };
  const hash = createHash('sha256');
  for (let at = 0; at < bytes; at += 64 * 1024) hash.update(piece(at));
  return {
    sha256: hash.digest('hex'),
    stream: () =>
      Readable.from(
        (function* () {
          for (let at = 0; at < bytes; at += 64 * 1024) yield piece(at);
        })(),
      ),
  };
}

async function readAll(stream: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Sends `bytes` and then fails, as an upload cut short does. */
function cutShort(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) {
        this.destroy(new Error('the client went away'));
        return;
      }
      const chunk = Buffer.alloc(Math.min(256 * 1024, bytes - sent), 9);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

describe.each(Object.keys(BACKENDS))('file storage: %s', (name) => {
  let backend: Backend;
  let queue: QueueStore;

  beforeAll(async () => {
    backend = await (BACKENDS[name] as () => Promise<Backend>)();
    queue = new QueueStore(backend.database, 600_000);
  });
  afterAll(async () => {
    await backend.cleanup();
  });

  it('saves, opens, measures and removes a file byte for byte', async () => {
    const key = randomUUID();
    const file = content(6 * MiB + 17, 1);
    const stored = await backend.storage.save(key, file.stream());
    expect(stored).toEqual({ bytes: 6 * MiB + 17, sha256: file.sha256 });
    const opened = await backend.storage.open(key);
    expect(opened?.bytes).toBe(6 * MiB + 17);
    expect(await readAll(opened?.stream ?? Readable.from([]))).toEqual(stored);
    expect((await backend.storage.stat(key))?.bytes).toBe(6 * MiB + 17);

    const empty = randomUUID();
    expect(await backend.storage.save(empty, Readable.from([]))).toMatchObject({ bytes: 0 });
    expect(await readAll((await backend.storage.open(empty))?.stream ?? Readable.from([1]))).toMatchObject({
      bytes: 0,
    });

    await backend.storage.remove(key);
    expect(await backend.storage.open(key)).toBeUndefined();
    expect(await backend.storage.stat(key)).toBeUndefined();
    await backend.storage.remove(key);
    expect(await backend.storage.open(randomUUID())).toBeUndefined();
    await expect(backend.storage.open('../etc/passwd')).rejects.toThrow(/not a file key/);
  });

  it('leaves nothing of a stream cut short', async () => {
    for (const bytes of [100 * 1024, 6 * MiB]) {
      const key = randomUUID();
      await expect(backend.storage.save(key, cutShort(bytes))).rejects.toThrow(/went away/);
      expect(await backend.storage.open(key)).toBeUndefined();
      expect(await backend.leftovers()).toBe(0);
    }
  });

  it('keeps saves made at once apart', async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({
      key: randomUUID(),
      file: content(MiB + i * 4099, 10 + i),
    }));
    const stored = await Promise.all(files.map(({ key, file }) => backend.storage.save(key, file.stream())));
    expect(stored.map((s) => s.sha256)).toEqual(files.map(({ file }) => file.sha256));
    for (const { key, file } of files) {
      const opened = await backend.storage.open(key);
      expect((await readAll(opened?.stream ?? Readable.from([]))).sha256).toBe(file.sha256);
    }
    expect(await backend.leftovers()).toBe(0);
  });

  it('checks that it can write', async () => {
    await expect(backend.storage.check()).resolves.toBeUndefined();
    await expect(backend.storage.check()).resolves.toBeUndefined();
  });

  it('sweeps the files no document names, once past the grace, and keeps documents’ files', async () => {
    const named = randomUUID();
    await backend.storage.save(named, content(1000, 3).stream());
    await queue.addDocument(
      {
        id: named,
        apiVersion: 'v2',
        modelKey: 'model-1',
        fileName: 'scan.pdf',
        upstreamJobId: `job-${named}`,
        fileKey: named,
        fileBytes: 1000,
      },
      Date.now(),
    );
    const orphans = [randomUUID(), randomUUID()];
    for (const key of orphans) await backend.storage.save(key, content(2000, 4).stream());

    // Within the grace: another copy may be about to write their documents' rows.
    const now = await backend.storage.sweepOrphans({
      database: backend.database,
      now: Date.now(),
      graceMs: ORPHAN_GRACE_MS,
    });
    expect(now.files).toBe(0);
    for (const key of orphans) expect(await backend.storage.stat(key)).toBeDefined();

    const later = await backend.storage.sweepOrphans({
      database: backend.database,
      now: Date.now() + ORPHAN_GRACE_MS + 60_000,
      graceMs: ORPHAN_GRACE_MS,
    });
    // Files of earlier tests no document names go too: at least these two.
    expect(later.files).toBeGreaterThanOrEqual(2);
    for (const key of orphans) expect(await backend.storage.stat(key)).toBeUndefined();
    expect((await backend.storage.stat(named))?.bytes).toBe(1000);
  });
});

describe('a storage that cannot be written fails its check', () => {
  it('s3: the server gone', async () => {
    const server = await startS3Server();
    const storage = new S3FileStorage(s3Settings(server));
    try {
      await storage.check();
      await server.stop();
      await expect(storage.check()).rejects.toThrow();
    } finally {
      await storage.close();
    }
  });

  it('s3: a bucket that does not exist', async () => {
    const server = await startS3Server();
    const storage = new S3FileStorage({ ...s3Settings(server), bucket: 'no-such-bucket' });
    try {
      await expect(storage.check()).rejects.toMatchObject({ name: 'NoSuchBucket' });
    } finally {
      await storage.close();
      await server.stop();
    }
  });

  it('database: the store closed', async () => {
    const store = await openTestStore('sqlite');
    const storage = new DatabaseFileStorage(store.database);
    await storage.check();
    await store.cleanup();
    await expect(storage.check()).rejects.toThrow();
  });

  it('disk: a folder that cannot be made', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'not-a-folder-'));
    try {
      const blocker = path.join(dir, 'files');
      await writeFile(blocker, 'a file where the folder should be');
      await expect(new DiskFileStorage(blocker).check()).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the database storage’s writes in flight', () => {
  let store: TestStore;
  let dir: string;

  beforeAll(async () => {
    store = await openTestStore('postgres');
    dir = await mkdtemp(path.join(os.tmpdir(), 'kept-files-'));
  });
  afterAll(async () => {
    await store.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('sweeps a write whose writer stopped beating, never one whose writer lives', async () => {
    let clock = Date.now();
    const storage = new DatabaseFileStorage(store.database, { heartbeatMs: 5, clock: { now: () => clock } });
    const db = keptFilesDb(store.database);
    const live = randomUUID();
    const body = new Readable({ read() {} });
    const saving = storage.save(live, body);
    body.push(Buffer.alloc(300 * 1024, 1));
    // Ten minutes pass for the clock; the live writer's heartbeat follows it.
    clock += 10 * 60_000;
    for (let i = 0; i < 400; i++) {
      const row = await db
        .selectFrom('kept_files')
        .select('heartbeat_at')
        .where('key', '=', live)
        .executeTakeFirst();
      if (row?.heartbeat_at === clock) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // A writer that died mid-write: its header and a chunk, its heartbeat ten minutes old.
    const dead = randomUUID();
    await db
      .insertInto('kept_files')
      .values({
        key: dead,
        state: 'writing',
        bytes: null,
        sha256: null,
        chunk_bytes: 262_144,
        writer: 'gone-host.1.x',
        created_at: clock - 600_000,
        heartbeat_at: clock - 600_000,
        completed_at: null,
      })
      .execute();
    await db
      .insertInto('kept_file_chunks')
      .values({ file_key: dead, seq: 0, data: Buffer.alloc(5000, 2) })
      .execute();

    const swept = await storage.sweepOrphans({
      database: store.database,
      now: clock,
      graceMs: ORPHAN_GRACE_MS,
    });
    expect(swept).toEqual({ files: 0, parts: 1, bytes: 5000 });
    expect(
      await db.selectFrom('kept_files').select('key').where('key', '=', dead).executeTakeFirst(),
    ).toBeUndefined();

    body.push(Buffer.alloc(10, 3));
    body.push(null);
    expect(await saving).toMatchObject({ bytes: 300 * 1024 + 10 });
    expect((await storage.stat(live))?.bytes).toBe(300 * 1024 + 10);
  });
});
