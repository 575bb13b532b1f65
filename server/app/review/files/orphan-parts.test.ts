/**
 * "A `.part` is only ever removed by the process that made it" (issue 19), with a real second process:
 * a child writes an upload into the folder this process sweeps and never finishes. However old its
 * `.part` (its time set back past the grace), the sweep leaves it while the child lives; once the child
 * is killed (`kill -9`: nothing of its own cleaned up), the next sweep removes it. A part named for
 * another machine is never removed, however old.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { ORPHAN_GRACE_MS, sweepOrphanFiles } from './orphan-files';
import { makerOf, parsePart, partName, THIS_PROCESS } from './process-mark';

describe('the .part of another process', () => {
  let store: TestStore;
  let filesDir: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    store = await openTestStore('sqlite');
    filesDir = path.join(store.settings.dataDir, 'files');
    await mkdir(filesDir, { recursive: true });
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await store.cleanup();
  });

  const sweep = () =>
    sweepOrphanFiles({
      database: store.database,
      filesDir,
      incomingDir: path.join(store.settings.dataDir, 'incoming'),
      now: Date.now(),
    });
  const setBack = async (name: string, ms: number) => {
    const when = new Date(Date.now() - ms);
    await utimes(path.join(filesDir, name), when, when);
  };

  it('is left while that process lives, however old, and removed once it is gone', async () => {
    const key = randomUUID();
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/app/review/files/part-writer-process.ts', filesDir, key],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [line] = (await once(
      createInterface({ input: child.stdout as NodeJS.ReadableStream }),
      'line',
    )) as [string];
    const { part, pid } = JSON.parse(line) as { part: string; pid: number };
    expect(pid).toBe(child.pid);
    const mark = parsePart(part)?.mark;
    expect(mark).toMatchObject({ host: THIS_PROCESS.host, pid: child.pid });
    expect(makerOf(mark ?? THIS_PROCESS)).toBe('alive');

    // Another machine's part, ten hours old: never ours to remove.
    const elsewhere = partName(randomUUID(), { ...THIS_PROCESS, host: 'another-machine-0a1b2c3d' });
    await writeFile(path.join(filesDir, elsewhere), 'x');
    await setBack(elsewhere, 10 * 60 * 60 * 1000);

    await setBack(part, 2 * ORPHAN_GRACE_MS);
    expect(await sweep()).toMatchObject({ parts: 0 });
    expect(await readdir(filesDir)).toEqual(expect.arrayContaining([part, elsewhere]));

    child.kill('SIGKILL');
    await once(child, 'exit');
    child = undefined;
    expect(makerOf(mark ?? THIS_PROCESS)).toBe('gone');
    await setBack(part, 2 * ORPHAN_GRACE_MS);
    expect(await sweep()).toMatchObject({ parts: 1, bytes: 64 * 1024 });
    expect(await readdir(filesDir)).toEqual([elsewhere]);
  });

  it('tells a process from a later one given the same pid', () => {
    // This process's pid with another start: the pid was reused, the maker is gone.
    expect(makerOf({ ...THIS_PROCESS, start: `${THIS_PROCESS.start.slice(0, 8)}t1` })).toBe(
      THIS_PROCESS.start.startsWith('r') ? 'alive' : 'gone',
    );
    expect(makerOf(THIS_PROCESS)).toBe('this-process');
  });
});
