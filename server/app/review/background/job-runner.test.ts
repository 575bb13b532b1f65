/**
 * The copies' background work (job-runner.ts, job-table.ts) on both engines, with a fake clock: the
 * runner sees only the time the test sets, so every count is exact and nothing sleeps.
 *
 * - one claim: runners racing on one store run each due job once;
 * - a handler's `again` is its schedule; a handler that throws is retried with a doubling back-off,
 *   kept `failed` after its kind's attempts, and its failure told once;
 * - a runner that dies mid-job (never stops, its handler never ends) holds the job until the lease
 *   runs out, then another runner takes it; its late outcome changes nothing;
 * - stop() gives a job back at once; scopes decide which runner takes a job;
 * - the store away: passes fail, are told once, nothing rejects, and work resumes when it is back.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../db/store-unavailable';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { flakyDatabase } from '@extraction-review/test-kit/review/flaky-database';
import { again, BackgroundRunner, done, type JobHandler, type RunnerOptions } from './job-runner';
import { scheduleJob } from './job-table';

const T0 = 1_800_000_000_000;
const LEASE_MS = 60_000;

describe.each(ENGINES)('the background work on %s', (engine) => {
  let store: TestStore;
  let clock = T0;
  const runners: BackgroundRunner[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    store = await openTestStore(engine);
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await store.cleanup();
  });
  beforeEach(async () => {
    await store.database.db.deleteFrom('background_jobs').execute();
    clock = T0;
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    expect(unhandled).toEqual([]);
  });

  function runner(handlers: JobHandler[], extra: Partial<RunnerOptions> = {}): BackgroundRunner {
    const made = new BackgroundRunner({
      name: '[test] the runner',
      database: store.database,
      clock: { now: () => clock },
      handlers,
      log: () => undefined,
      ...extra,
    });
    runners.push(made);
    return made;
  }

  const enqueue = (key: string, runAt = T0, kind = 'test', scope: string | null = null) =>
    scheduleJob(store.database.db, { kind, key, runAt, scope }, T0);

  const job = (key: string, kind = 'test') =>
    store.database.db
      .selectFrom('background_jobs')
      .selectAll()
      .where('kind', '=', kind)
      .where('key', '=', key)
      .executeTakeFirst();

  it('runs each due job once with three runners racing, and none before it is due', async () => {
    const runs: string[] = [];
    const handler: JobHandler = {
      kind: 'test',
      leaseMs: LEASE_MS,
      concurrency: 2,
      run: async ({ key }) => {
        runs.push(key);
        // Yield, so the runners' claims interleave.
        await new Promise((resolve) => setImmediate(resolve));
        return done;
      },
    };
    const keys = Array.from({ length: 30 }, (_, n) => `job-${n}`);
    for (const key of keys) await enqueue(key);
    await enqueue('later', T0 + 1);
    const copies = [runner([handler]), runner([handler]), runner([handler])];

    await Promise.all(copies.map((copy) => copy.pass()));
    expect(runs.sort()).toEqual([...keys].sort());
    expect(await job('job-0')).toBeUndefined();
    expect(await job('later')).toMatchObject({ state: 'pending', lease_owner: null });

    clock = T0 + 1;
    await Promise.all(copies.map((copy) => copy.pass()));
    expect(runs.filter((key) => key === 'later')).toHaveLength(1);
  });

  it('keeps the schedule a handler returns, with its payload', async () => {
    const seen: { at: number; payload: unknown }[] = [];
    const copy = runner([
      {
        kind: 'test',
        leaseMs: LEASE_MS,
        run: async ({ now, payload }) => {
          seen.push({ at: now, payload });
          return seen.length < 3 ? again(now + 5_000, { round: seen.length }) : done;
        },
      },
    ]);
    await enqueue('a');
    await copy.pass();
    clock += 4_999;
    await copy.pass();
    expect(seen).toHaveLength(1);
    clock += 1;
    await copy.pass();
    clock += 5_000;
    await copy.pass();
    await copy.pass();
    expect(seen).toEqual([
      { at: T0, payload: {} },
      { at: T0 + 5_000, payload: { round: 1 } },
      { at: T0 + 10_000, payload: { round: 2 } },
    ]);
    expect(await job('a')).toBeUndefined();
  });

  it('retries a failing job with a doubling back-off, tells it once, and keeps it failed at the end', async () => {
    const logs: string[] = [];
    let runs = 0;
    const copy = runner(
      [
        {
          kind: 'test',
          leaseMs: LEASE_MS,
          maxAttempts: 4,
          run: async () => {
            runs++;
            throw new Error(`upstream said no (${runs})`);
          },
        },
      ],
      { retryMs: 1_000, log: (line) => logs.push(line) },
    );
    await enqueue('a');
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await copy.pass();
      const row = await job('a');
      expect(row).toMatchObject({
        attempts: attempt,
        lease_owner: null,
        last_error: `upstream said no (${attempt})`,
      });
      waits.push((row?.run_at ?? 0) - clock);
      clock = row?.run_at ?? clock;
    }
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    await copy.pass();
    expect(await job('a')).toMatchObject({ state: 'failed', attempts: 4 });
    clock += 3_600_000;
    await copy.pass();
    expect(runs).toBe(4);
    // Told once (the numbers differ, the kind does not).
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('[test] the runner running a job failed (test a)');

    // Enqueued again (an admin's retry): pending, its failures forgotten.
    await scheduleJob(store.database.db, { kind: 'test', key: 'a', runAt: clock }, clock);
    expect(await job('a')).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('spends no attempt when the store is away inside a handler, and resumes at once when it is back', async () => {
    const logs: string[] = [];
    let runs = 0;
    const copy = runner(
      [
        {
          kind: 'test',
          leaseMs: LEASE_MS,
          maxAttempts: 1,
          run: async () => {
            runs++;
            if (runs === 1) throw new StoreUnavailableError(new Error('Connection terminated unexpectedly'));
            return done;
          },
        },
      ],
      { log: (line) => logs.push(line) },
    );
    await enqueue('a');
    expect(await copy.runOnce()).toBe(false);
    expect(await job('a')).toMatchObject({ state: 'pending', attempts: 0, lease_owner: copy.owner });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('[test] the runner failed');

    // The next pass gives the job back and runs it, without waiting for its lease (same clock).
    await copy.pass();
    expect(runs).toBe(2);
    expect(await job('a')).toBeUndefined();
  });

  it('hands a dead runner’s job over when its lease runs out; its late outcome changes nothing', async () => {
    let finishDead: () => void = () => undefined;
    let deadStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (deadStarted = resolve));
    const dead = new BackgroundRunner({
      name: '[test] dead',
      database: store.database,
      clock: { now: () => clock },
      log: () => undefined,
      handlers: [
        {
          kind: 'test',
          leaseMs: LEASE_MS,
          // Never ends by itself, and ignores stop(): a process killed mid-job.
          run: () =>
            new Promise((resolve) => {
              finishDead = () => resolve(again(T0 + 1));
              deadStarted();
            }),
        },
      ],
    });
    const runs: number[] = [];
    const alive = runner([
      {
        kind: 'test',
        leaseMs: LEASE_MS,
        run: async ({ now }) => (runs.push(now), again(now + 10 * LEASE_MS)),
      },
    ]);
    await enqueue('a');
    const deadPass = dead.pass();
    await started;
    expect(await job('a')).toMatchObject({ lease_owner: dead.owner, lease_until: T0 + LEASE_MS });

    await alive.pass();
    clock = T0 + LEASE_MS - 1;
    await alive.pass();
    expect(runs).toEqual([]);
    clock = T0 + LEASE_MS;
    await alive.pass();
    expect(runs).toEqual([T0 + LEASE_MS]);
    const after = await job('a');
    expect(after).toMatchObject({ lease_owner: null, run_at: T0 + 11 * LEASE_MS });

    finishDead();
    await deadPass;
    expect(await job('a')).toEqual(after);
  });

  it('gives a job back at once on stop(), for another runner', async () => {
    let inside: () => void = () => undefined;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const stopping = runner([
      {
        kind: 'test',
        leaseMs: LEASE_MS,
        run: ({ signal, now }) =>
          new Promise((resolve) => {
            inside();
            signal.addEventListener('abort', () => resolve(again(now)));
          }),
      },
    ]);
    const runs: string[] = [];
    const other = runner([
      { kind: 'test', leaseMs: LEASE_MS, run: async ({ key }) => (runs.push(key), done) },
    ]);
    await enqueue('a');
    const pass = stopping.pass();
    await entered;
    await stopping.stop();
    await pass;
    expect(await job('a')).toMatchObject({ lease_owner: null, lease_until: null, run_at: T0 });
    await other.pass();
    expect(runs).toEqual(['a']);
  });

  it('takes a job only in a scope it serves (no scope: anyone)', async () => {
    const runs: string[] = [];
    const serving = (scopes: string[]) =>
      runner([{ kind: 'test', leaseMs: LEASE_MS, scopes, run: async ({ key }) => (runs.push(key), done) }]);
    await enqueue('mine', T0, 'test', 'v2 here');
    await enqueue('theirs', T0, 'test', 'v2 there');
    await enqueue('anyone', T0, 'test', null);
    await enqueue('other-kind', T0, 'other', null);
    await serving(['v2', 'v2 here']).pass();
    expect(runs.sort()).toEqual(['anyone', 'mine']);
    expect(await job('theirs')).toMatchObject({ state: 'pending' });
    expect(await job('other-kind', 'other')).toMatchObject({ state: 'pending' });
  });

  it('survives the store going away: told once, never rejects, works again when it is back', async () => {
    const flaky = flakyDatabase(store.database);
    const logs: string[] = [];
    const runs: string[] = [];
    let onLog = (): void => undefined;
    const copy = runner(
      [
        {
          kind: 'test',
          leaseMs: LEASE_MS,
          adopt: async () => undefined,
          run: async ({ key }) => (runs.push(key), done),
        },
      ],
      {
        database: flaky.database,
        intervalMs: 1,
        log: (line) => {
          logs.push(line);
          onLog();
        },
      },
    );
    await enqueue('a');
    expect(await copy.runOnce()).toBe(false);
    copy.start();
    await flaky.failuresReach(flaky.state.failures + 5);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('[test] the runner failed');
    expect(logs[0]).toContain('terminating connection due to administrator command');

    const recovered = new Promise<void>((resolve) => {
      onLog = () => {
        if (logs.some((line) => line.includes('works again after'))) resolve();
      };
    });
    flaky.state.down = false;
    await recovered;
    await copy.stop();
    expect(runs).toEqual(['a']);
    expect(logs).toHaveLength(2);
  });
});
