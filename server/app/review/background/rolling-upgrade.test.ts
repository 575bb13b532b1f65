/**
 * A rolling upgrade to migration 0006 (issue 20), on both engines: a copy of the release before
 * (testing/older-copy.ts, its follower's and worker's own statements) and this code's follower and
 * worker on one store, against a real upstream on 127.0.0.1 that counts what it gets. Fake clock.
 *
 * - a document the older copy holds is not polled by the newer one; the schedule the older copy writes
 *   is kept; while the newer copy checks a job the older one cannot take it;
 * - a delivery written by the older copy (no job) is adopted and sent once; one the older copy holds
 *   is not sent by the newer one until that lease runs out; one the newer copy sends the older one
 *   cannot take.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { FIRST_CHECK_MS, FOLLOW_LEASE_MS, JobFollower } from '../intake/job-follower';
import { upstreamIdentity } from '../intake/upstream-identity';
import { QueueStore } from '../store/queue-store';
import { addDueRagDelivery } from '@extraction-review/test-kit/review/due-delivery';
import { OlderCopy } from '@extraction-review/test-kit/review/older-copy';
import { DeliveryStore } from '../deliveries/delivery-store';
import { DeliveryWorker } from '../deliveries/delivery-worker';

const T0 = 1_800_000_000_000;
const DELIVERY_LEASE_MS = 40_000;
const HELD_MODEL = 'model-held';

describe.each(ENGINES)('a rolling upgrade to the background work on %s', (engine) => {
  let store: TestStore;
  let queue: QueueStore;
  let upstream: TestUpstream;
  let older: OlderCopy;
  let clock = T0;

  beforeAll(async () => {
    store = await openTestStore(engine);
    queue = new QueueStore(store.database, 60_000);
    older = new OlderCopy(store.database);
    upstream = await startUpstream((req, res) => {
      if ((req.url ?? '').includes(HELD_MODEL) || (req.url ?? '').includes('held-job')) return;
      if ((req.url ?? '').startsWith('/v2/jobs/')) answer(res, 200, { job: { status: 'Processing' } });
      else answer(res, 201, { ok: true });
    });
  });
  afterAll(async () => {
    await upstream.close();
    await store.cleanup();
  });
  beforeEach(async () => {
    await store.database.db.deleteFrom('documents').execute();
    await store.database.db.deleteFrom('background_jobs').execute();
    upstream.requests.length = 0;
    clock = T0;
  });

  const follower = () =>
    new JobFollower({
      review: { queue, database: store.database, clock: { now: () => clock } },
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
    });
  const worker = () =>
    new DeliveryWorker({
      database: store.database,
      clock: { now: () => clock },
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
      retry: { attemptTimeoutMs: DELIVERY_LEASE_MS - 30_000 },
    });
  const addJob = (job: string, modelKey = 'model-a') =>
    queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey,
        fileName: `${job}.pdf`,
        upstreamJobId: job,
        upstreamId: upstreamIdentity(upstream.url),
      },
      T0,
    );
  const requestsFor = (part: string) => upstream.requests.filter((r) => r.url.includes(part)).length;

  it('never follows one job from both releases at once, and keeps the older one’s schedule', async () => {
    const document = await addJob('job-a');
    const copy = follower();
    clock = T0 + FIRST_CHECK_MS;

    // The older copy takes the job first (and checks it, slowly).
    const taken = await older.claimDocument(clock, FOLLOW_LEASE_MS);
    expect(taken?.id).toBe(document.id);
    await copy.tick();
    expect(requestsFor('job-a')).toBe(0);

    // It lets go with its next due time, 2.25 s on: the newer copy waits for it.
    clock += 1_000;
    if (taken === undefined) throw new Error('not taken');
    await older.letGoDocument(taken, clock + 2_250, 2_250);
    await copy.tick();
    clock += 2_249;
    await copy.tick();
    expect(requestsFor('job-a')).toBe(0);
    clock += 1;
    await copy.tick();
    expect(requestsFor('job-a')).toBe(1);

    // While the newer copy checks a job (its request unanswered), the older copy cannot take it.
    const held = await addJob('held-job');
    const checking = follower();
    const asked = upstream.nextRequest('/v2/jobs/held-job');
    const pass = checking.tick();
    await asked;
    expect(await older.claimDocument(clock, FOLLOW_LEASE_MS)).toBeUndefined();
    const row = await store.database.db
      .selectFrom('documents')
      .select('follow_holder')
      .where('id', '=', held.id)
      .executeTakeFirstOrThrow();
    expect(row.follow_holder).toBe(checking.holder);
    await checking.stop();
    await pass;
    await copy.stop();
  });

  it('adopts the older copy’s deliveries, and never sends one both hold', async () => {
    const deliveries = new DeliveryStore(store.database);
    const a = await addJob('job-a');
    const written = await addDueRagDelivery(store.database, a.id, T0);
    const copy = worker();

    // Written by the older copy's outbox, without a job: adopted and sent, once.
    await copy.drain();
    await copy.drain();
    expect(await deliveries.find(written)).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(requestsFor('/model-a/')).toBe(1);

    // Held by the older copy (which then dies): not sent until its lease runs out.
    const b = await addJob('job-b', 'model-b');
    const heldByOlder = await addDueRagDelivery(store.database, b.id, T0);
    expect((await older.claimDelivery(clock, DELIVERY_LEASE_MS))?.id).toBe(heldByOlder);
    await copy.drain();
    clock = T0 + DELIVERY_LEASE_MS - 1;
    await copy.drain();
    expect(requestsFor('/model-b/')).toBe(0);
    clock = T0 + DELIVERY_LEASE_MS;
    await copy.drain();
    await copy.drain();
    expect(requestsFor('/model-b/')).toBe(1);
    expect(await deliveries.find(heldByOlder)).toMatchObject({ state: 'delivered', attempts: 1 });

    // Sent by the newer copy (its attempt in flight): the older copy cannot take it.
    const c = await addJob('job-c', HELD_MODEL);
    const inFlight = await addDueRagDelivery(store.database, c.id, clock);
    const arrived = upstream.nextRequest(`/v2/extensions/rag/${HELD_MODEL}/documents`);
    const sending = copy.drain();
    await arrived;
    expect(await older.claimDelivery(clock, DELIVERY_LEASE_MS)).toBeUndefined();
    await copy.stop();
    await sending;
    expect(await deliveries.find(inFlight)).toMatchObject({
      state: 'pending',
      lease_until: null,
      attempts: 0,
    });
  });
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
