/**
 * Orphaned files removed at start (issue 18), on both engines, with real files whose times are set
 * back (utimes) instead of waiting: a kept file no document names, an unfinished `.part` of a gone
 * process and a request copy in `incoming/`, all older than the grace period, are removed and counted;
 * the files of documents, anything younger than the grace (another copy's upload in flight, its row
 * not yet written), parts of living processes or other machines or of an older release's naming, and
 * names the store never makes are left. Then the same through openReview, as a start does it, with the
 * line it logs. (Parts of a real second process: orphan-parts.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '@extraction-review/test-kit/log-capture';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview } from '../open-review';
import { QueueStore } from '../store/queue-store';
import { DiskFileStorage } from './file-storage';
import { partName, THIS_PROCESS } from './process-mark';
import { ORPHAN_GRACE_MS, sweepOrphanFiles } from './orphan-files';

const HOUR = 60 * 60 * 1000;
/** Above Linux's largest pid (4,194,304): no process has it. */
const GONE = { ...THIS_PROCESS, pid: 4_194_400 };
const ELSEWHERE = { ...THIS_PROCESS, host: 'another-machine-0a1b2c3d' };

describe.each(ENGINES)('orphaned files on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let filesDir: string;
  let incomingDir: string;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, 600_000);
    filesDir = path.join(store.settings.dataDir, 'files');
    incomingDir = path.join(store.settings.dataDir, 'incoming');
    await mkdir(filesDir, { recursive: true });
    await mkdir(incomingDir, { recursive: true });
  });
  afterAll(async () => {
    await store.cleanup();
  });

  /** A file of `bytes` written `ageMs` ago (its modification time set back). */
  async function file(dir: string, name: string, ageMs: number, bytes = 1024): Promise<string> {
    const at = path.join(dir, name);
    await writeFile(at, Buffer.alloc(bytes, 7));
    const when = new Date(Date.now() - ageMs);
    await utimes(at, when, when);
    return name;
  }

  async function documentWithFile(ageMs: number): Promise<string> {
    const id = randomUUID();
    await file(filesDir, id, ageMs);
    await queue.addDocument(
      {
        id,
        apiVersion: 'v2',
        modelKey: 'model-1',
        fileName: 'scan.pdf',
        upstreamJobId: `job-${id}`,
        fileKey: id,
        fileBytes: 1024,
      },
      Date.now(),
    );
    return id;
  }

  it('removes what no document names once past the grace period, and leaves the rest', async () => {
    const kept = [await documentWithFile(3 * HOUR), await documentWithFile(5 * 60_000)];
    // More than one batch of keys asked of the store (500).
    const orphans = await Promise.all(
      Array.from({ length: 1_200 }, () => file(filesDir, randomUUID(), 2 * HOUR)),
    );
    const young = [
      await file(filesDir, randomUUID(), 10 * 60_000), // written, its row not yet (another copy)
      await file(filesDir, partName(randomUUID(), GONE), 60_000), // cut short a minute ago
      await file(filesDir, 'not-a-key.txt', 10 * HOUR), // never the store's own
      // Old parts whose maker lives, or cannot be known: this process's, another machine's, and one
      // named as releases before issue 19 named them.
      await file(filesDir, partName(randomUUID()), 2 * HOUR),
      await file(filesDir, partName(randomUUID(), ELSEWHERE), 10 * HOUR),
      await file(filesDir, `${randomUUID()}.${randomUUID()}.part`, 10 * HOUR),
    ];
    const oldPart = await file(filesDir, partName(randomUUID(), GONE), ORPHAN_GRACE_MS + 60_000);
    const oldBody = await file(incomingDir, `${randomUUID()}.body`, 2 * HOUR, 4096);
    const youngBody = await file(incomingDir, `${randomUUID()}.body`, 60_000);

    const swept = await sweepOrphanFiles({
      database: store.database,
      filesDir,
      incomingDir,
      now: Date.now(),
    });
    expect(swept).toEqual({ files: 1_200, parts: 1, incoming: 1, bytes: 1_201 * 1024 + 4096 });
    const left = new Set(await readdir(filesDir));
    expect(orphans.filter((name) => left.has(name))).toEqual([]);
    expect(left.has(oldPart)).toBe(false);
    expect([...kept, ...young].filter((name) => !left.has(name))).toEqual([]);
    expect(await readdir(incomingDir)).toEqual([youngBody]);
    expect(oldBody).not.toBe(youngBody);

    // Nothing more to do a second time; an hour later (a fake clock), the young orphan goes too.
    expect(
      await sweepOrphanFiles({ database: store.database, filesDir, incomingDir, now: Date.now() }),
    ).toEqual({ files: 0, parts: 0, incoming: 0, bytes: 0 });
    const later = await sweepOrphanFiles({
      database: store.database,
      filesDir,
      incomingDir,
      now: Date.now() + ORPHAN_GRACE_MS,
    });
    expect(later).toMatchObject({ files: 1, parts: 1, incoming: 1 });
    expect((await readdir(filesDir)).sort()).toEqual([...kept, ...young.slice(2)].sort());
  });

  it('never touches an upload in flight, even one started before the sweep', async () => {
    const storage = new DiskFileStorage(filesDir);
    const key = randomUUID();
    const body = new PassThrough();
    const saving = storage.save(key, body);
    body.write(Buffer.alloc(64 * 1024, 1));
    // The upload's `.part` exists and is being written while a start (another copy's) sweeps.
    for (let i = 0; i < 50 && !(await readdir(filesDir)).some((n) => n.startsWith(key)); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const swept = await sweepOrphanFiles({
      database: store.database,
      filesDir,
      incomingDir,
      now: Date.now(),
    });
    expect(swept.parts).toBe(0);
    body.end(Buffer.alloc(1024, 2));
    expect(await saving).toMatchObject({ bytes: 65 * 1024 });
    expect((await storage.open(key))?.bytes).toBe(65 * 1024);
  });

  it('sweeps at start (openReview) and logs how many it removed', async () => {
    const orphan = await file(filesDir, randomUUID(), 2 * HOUR, 2 * 1024 * 1024);
    const logs = captureLogs();
    try {
      const review = await openReview(store.settings);
      try {
        expect(await review.swept).toMatchObject({ files: 1, bytes: 2 * 1024 * 1024 });
        expect(logs.messages('info')).toContainEqual(
          expect.stringMatching(/^\[review files\] removed 1 orphaned file\(s\), 2\.0 MB: 1 kept file/),
        );
      } finally {
        await review.close();
      }
    } finally {
      logs.restore();
    }
    expect(await readdir(filesDir)).not.toContain(orphan);
  });
});
