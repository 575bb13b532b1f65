/**
 * The job follower's loop never ends the process (issue 19: a PostgreSQL restart's "the database
 * system is shutting down" rejected out of it and every copy exited). On both engines, with a store
 * whose every query fails while it is "down" (an injected database, the error PostgreSQL sends on a
 * fast shutdown), then works again:
 *
 * - a pass whose query throws resolves (runOnce, and the loop started by start()); nothing rejects
 *   unhandled;
 * - the failure is told once for any number of failed passes, then once that it works again;
 * - once the database is back, the next pass polls the due job, without a restart.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, v2JobBody, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { QueueStore } from '../store/queue-store';
import { flakyDatabase } from '@extraction-review/test-kit/review/flaky-database';
import { FIRST_CHECK_MS, JobFollower } from './job-follower';
import { upstreamIdentity } from './upstream-identity';

const T0 = 1_800_000_000_000;

describe.each(ENGINES)('the job follower while the database is away, on %s', (engine) => {
  let store: TestStore;
  let upstream: TestUpstream;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    store = await openTestStore(engine);
    upstream = await startUpstream((req, res) => answer(res, 200, v2JobBody('job-x')));
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await upstream.close();
    await store.cleanup();
  });
  afterEach(() => expect(unhandled).toEqual([]));

  it('tells the failure once, never rejects, and follows again once the database is back', async () => {
    const queue = new QueueStore(store.database, 60_000);
    await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-a',
        fileName: 'a.pdf',
        upstreamJobId: 'job-x',
        upstreamId: upstreamIdentity(upstream.url),
      },
      T0,
    );
    const flaky = flakyDatabase(store.database);
    const logs: string[] = [];
    let onLog = (): void => undefined;
    const follower = new JobFollower({
      review: { queue, database: flaky.database, clock: { now: () => T0 + FIRST_CHECK_MS } },
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
      tickMs: 1,
      log: (message) => {
        logs.push(message);
        onLog();
      },
    });

    expect(await follower.runOnce()).toBe(false);
    expect(await follower.runOnce()).toBe(false);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('terminating connection due to administrator command');

    follower.start();
    await flaky.failuresReach(flaky.state.failures + 4);
    expect(logs).toHaveLength(1);
    expect(upstream.requests).toHaveLength(0);

    const polled = upstream.nextRequest('/v2/jobs/job-x');
    const recovered = new Promise<void>((resolve) => {
      onLog = () => {
        if (logs.some((line) => line.includes('works again after'))) resolve();
      };
    });
    flaky.state.down = false;
    await polled;
    await recovered;
    await follower.stop();
    expect(logs).toHaveLength(2);
    expect(logs[1]).toMatch(/the job follower works again after \d+ failed attempts/);
    expect(upstream.requests).toHaveLength(1);
  });

  it('stops cleanly while the database is away (its leases are left to run out)', async () => {
    const flaky = flakyDatabase(store.database);
    const logs: string[] = [];
    const follower = new JobFollower({
      review: {
        queue: new QueueStore(store.database, 60_000),
        database: flaky.database,
        clock: { now: () => T0 },
      },
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
      tickMs: 1,
      log: (message) => logs.push(message),
    });
    follower.start();
    await flaky.failuresReach(flaky.state.failures + 2);
    await follower.stop();
    expect(logs.some((line) => line.includes('could not give its jobs back'))).toBe(true);
  });
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
