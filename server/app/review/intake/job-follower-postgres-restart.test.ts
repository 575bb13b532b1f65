/**
 * The job follower and the way back's worker through a real PostgreSQL restart (issue 19: `pg_ctl
 * stop -m fast` for 7 s ended every copy on an unhandled rejection from the follower's poll). A
 * private server (postgres-outage.ts) is stopped fast (57P01 to every session) and started again on
 * the same port; both loops run started, as in production:
 *
 * - while it is down: no unhandled rejection, each loop tells its failure once;
 * - once it is back: the follower polls the due job and the worker sends the pending delivery,
 *   without a restart, each saying it works again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, v2JobBody, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { openReviewDatabase, type ReviewDatabase } from '../db/open-database';
import { QueueStore } from '../store/queue-store';
import { startPostgresCluster } from '@extraction-review/test-kit/review/postgres-cluster';
import { outageOf, type PostgresOutage } from '@extraction-review/test-kit/review/postgres-outage';
import { DeliveryStore } from '../deliveries/delivery-store';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { FIRST_CHECK_MS, JobFollower } from './job-follower';
import { upstreamIdentity } from './upstream-identity';
import { addDueRagDelivery } from '@extraction-review/test-kit/review/due-delivery';
import { systemClock } from '@extraction-review/server-kit/clock';

/** A log that resolves waits for a line containing some text. */
function waitableLog() {
  const lines: string[] = [];
  const waiters: { text: string; count: number; resolve: () => void }[] = [];
  const log = (line: string) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (lines.filter((l) => l.includes(waiter.text)).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const lineWith = (text: string, count = 1) =>
    new Promise<void>((resolve) => {
      if (lines.filter((l) => l.includes(text)).length >= count) resolve();
      else waiters.push({ text, count, resolve });
    });
  return { lines, log, lineWith };
}

describe('the background loops through a PostgreSQL restart', () => {
  let outage: PostgresOutage;
  let dataDir: string;
  let database: ReviewDatabase;
  let upstream: TestUpstream;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    const cluster = await startPostgresCluster();
    outage = outageOf(cluster);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'follower-restart-'));
    database = await openReviewDatabase({ databaseUrl: cluster.url, dataDir, connectTimeoutMs: 2_000 });
    upstream = await startUpstream((req, res) =>
      (req.url ?? '').startsWith('/v2/jobs/')
        ? answer(res, 200, v2JobBody('job-restart'))
        : answer(res, 201, { ok: true }),
    );
    process.on('unhandledRejection', onUnhandled);
  }, 120_000);
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await upstream.close();
    await database.close();
    await outage.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps both loops alive while it is down and carries on when it is back', async () => {
    const T0 = Date.now();
    const queue = new QueueStore(database, 60_000);
    const document = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-a',
        fileName: 'a.pdf',
        upstreamJobId: 'job-restart',
        upstreamId: upstreamIdentity(upstream.url),
      },
      T0,
    );
    let clock = T0 + FIRST_CHECK_MS;
    const followerLog = waitableLog();
    const follower = new JobFollower({
      review: { queue, database, clock: { now: () => clock } },
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
      tickMs: 20,
      log: followerLog.log,
    });
    const workerLog = waitableLog();
    const worker = new DeliveryWorker({
      database,
      clock: systemClock,
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
      pollMs: 20,
      log: workerLog.log,
    });

    expect(await follower.runOnce()).toBe(true);
    expect(upstream.requests.filter((r) => r.url.startsWith('/v2/jobs/job-restart'))).toHaveLength(1);
    // A delivery due now, for the worker's first pass that works.
    await addDueRagDelivery(database, document.id, Date.now());

    await outage.stopFast();
    follower.start();
    worker.start();
    await followerLog.lineWith('the job follower failed');
    await workerLog.lineWith('the delivery worker failed');

    // The job is due again by the time it is back.
    clock += 60_000;
    await outage.startAgain();
    await followerLog.lineWith('works again after');
    await workerLog.lineWith('works again after');
    await follower.stop();
    await worker.stop();

    expect(upstream.requests.filter((r) => r.url.startsWith('/v2/jobs/job-restart'))).toHaveLength(2);
    const [delivery] = await new DeliveryStore(database).forDocument(document.id);
    expect(delivery).toMatchObject({ state: 'delivered' });
    // Told once each while it was down (however many passes failed), then once back.
    expect(followerLog.lines.filter((l) => l.includes('failed'))).toHaveLength(
      new Set(followerLog.lines.filter((l) => l.includes('failed'))).size,
    );
    expect(followerLog.lines.length).toBeLessThanOrEqual(4);
    expect(workerLog.lines.length).toBeLessThanOrEqual(4);
    expect(unhandled).toEqual([]);
  }, 120_000);
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
