/**
 * The job follower and the way back's deliveries as two kinds of one runner (one loop for a copy's
 * background work), on both engines, against a real upstream on 127.0.0.1; fake clock. One pass polls
 * the due job and sends the due delivery; a second pass before anything is due again does nothing.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { FIRST_CHECK_MS, JobFollower } from '../intake/job-follower';
import { upstreamIdentity } from '../intake/upstream-identity';
import { QueueStore } from '../store/queue-store';
import { addDueRagDelivery } from '@extraction-review/test-kit/review/due-delivery';
import { DeliveryStore } from '../deliveries/delivery-store';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { BackgroundRunner } from './job-runner';

const T0 = 1_800_000_000_000;

describe.each(ENGINES)('one runner for both kinds on %s', (engine) => {
  let store: TestStore;
  let upstream: TestUpstream;

  beforeAll(async () => {
    store = await openTestStore(engine);
    upstream = await startUpstream((req, res) =>
      (req.url ?? '').startsWith('/v2/jobs/')
        ? answer(res, 200, { job: { status: 'Processing' } })
        : answer(res, 201, { ok: true }),
    );
  });
  afterAll(async () => {
    await upstream.close();
    await store.cleanup();
  });

  it('follows the job and sends the delivery in one pass', async () => {
    let clock = T0;
    const queue = new QueueStore(store.database, 60_000);
    const v2 = { url: upstream.url, apiKey: 'test-key' };
    const document = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-a',
        fileName: 'a.pdf',
        upstreamJobId: 'job-a',
        upstreamId: upstreamIdentity(upstream.url),
      },
      T0,
    );
    const delivery = await addDueRagDelivery(store.database, document.id, T0 + FIRST_CHECK_MS);
    const follower = new JobFollower({
      review: { queue, database: store.database, clock: { now: () => clock } },
      upstream: { v2 },
    });
    const worker = new DeliveryWorker({
      database: store.database,
      clock: { now: () => clock },
      upstream: { v2 },
    });
    const runner = new BackgroundRunner({
      name: '[test] a copy’s background work',
      database: store.database,
      clock: { now: () => clock },
      handlers: [follower.handler, worker.handler],
    });

    clock = T0 + FIRST_CHECK_MS - 1;
    await runner.pass();
    expect(upstream.requests).toHaveLength(0);
    clock = T0 + FIRST_CHECK_MS;
    await runner.pass();
    await runner.pass();
    expect(upstream.requests.map((r) => r.url.split('?')[0])).toEqual([
      '/v2/jobs/job-a',
      '/v2/extensions/rag/model-a/documents',
    ]);
    expect(await new DeliveryStore(store.database).find(delivery)).toMatchObject({ state: 'delivered' });
    const jobs = await store.database.db.selectFrom('background_jobs').select(['kind', 'run_at']).execute();
    expect(jobs).toEqual([{ kind: 'follow-job', run_at: T0 + FIRST_CHECK_MS + FIRST_CHECK_MS * 1.5 }]);
    await runner.stop();
  });
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
