/**
 * A copy killed mid-job (kill -9), on both engines: a runner in a child process takes a job and is
 * killed while its handler runs; the job stays its own until the lease runs out (fake clock), then a
 * runner here takes it and runs it, once.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type {
  BackgroundRunnerMessage,
  BackgroundRunnerOptions,
} from '@extraction-review/test-kit/review/background-runner-process';
import { repoRoot } from '../../settings/config';
import { BackgroundRunner, done } from './job-runner';
import { scheduleJob } from './job-table';

const T0 = 1_800_000_000_000;
const LEASE_MS = 60_000;

describe.each(ENGINES)('a runner killed mid-job on %s', (engine) => {
  let store: TestStore;

  beforeAll(async () => {
    store = await openTestStore(engine);
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it('leaves its job to its lease, then another runner takes it', async () => {
    await scheduleJob(store.database.db, { kind: 'test', key: 'a', runAt: T0 }, T0);
    const options: BackgroundRunnerOptions = { store: store.settings, now: T0, leaseMs: LEASE_MS };
    // The test kit's process, started from the repository's root.
    const child = fork(path.join(repoRoot, 'packages/test-kit/src/review/background-runner-process.ts'), [], {
      cwd: repoRoot,
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BACKGROUND_RUNNER_OPTIONS: JSON.stringify(options) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const [message] = (await once(child, 'message')) as [BackgroundRunnerMessage];
    expect(message).toMatchObject({ type: 'running', key: 'a' });
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    const [, signal] = (await exited) as [number | null, string | null];
    expect(signal).toBe('SIGKILL');

    const row = () =>
      store.database.db.selectFrom('background_jobs').selectAll().where('key', '=', 'a').executeTakeFirst();
    expect(await row()).toMatchObject({ lease_owner: message.owner, lease_until: T0 + LEASE_MS });

    let clock = T0 + LEASE_MS - 1;
    const runs: number[] = [];
    const survivor = new BackgroundRunner({
      name: '[test] the survivor',
      database: store.database,
      clock: { now: () => clock },
      handlers: [{ kind: 'test', leaseMs: LEASE_MS, run: async ({ now }) => (runs.push(now), done) }],
    });
    await survivor.pass();
    expect(runs).toEqual([]);
    clock = T0 + LEASE_MS;
    await survivor.pass();
    await survivor.pass();
    expect(runs).toEqual([T0 + LEASE_MS]);
    expect(await row()).toBeUndefined();
    await survivor.stop();
  }, 60_000);
});
