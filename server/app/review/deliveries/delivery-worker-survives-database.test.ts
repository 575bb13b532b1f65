/**
 * The way back's delivery worker through a database outage and a stop (issue 19), on both engines,
 * against a real upstream on 127.0.0.1 (a v2 RAG delivery: the server's own upstream, no address
 * check):
 *
 * - while every query fails (an injected database, PostgreSQL's fast-shutdown error) its loop goes on,
 *   the failure told once, nothing rejected unhandled; once the database is back the pending delivery
 *   goes out without a restart;
 * - stopped mid-attempt, it gives the delivery back (no lease left), due at once for another copy.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { QueueStore } from '../store/queue-store';
import { flakyDatabase } from '@extraction-review/test-kit/review/flaky-database';
import { DeliveryStore } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';
import { addDueRagDelivery } from '@extraction-review/test-kit/review/due-delivery';
import { systemClock } from '@extraction-review/server-kit/clock';

describe.each(ENGINES)('the delivery worker through an outage, on %s', (engine) => {
  let store: TestStore;
  let upstream: TestUpstream;
  /** Requests to this model's RAG path are held unanswered (an attempt in flight). */
  const HELD_MODEL = 'model-held';
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    store = await openTestStore(engine);
    upstream = await startUpstream((req, res) => {
      if ((req.url ?? '').includes(HELD_MODEL)) return;
      answer(res, 201, { ok: true });
    });
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await upstream.close();
    await store.cleanup();
  });
  afterEach(() => expect(unhandled).toEqual([]));

  /** A confirmed v2 document's pending RAG delivery, due now. */
  async function pendingDelivery(modelKey: string): Promise<number> {
    const now = Date.now();
    const document = await new QueueStore(store.database, 60_000).addDocument(
      { apiVersion: 'v2', modelKey, fileName: 'a.pdf', upstreamJobId: `job-${modelKey}` },
      now,
    );
    const id = await addDueRagDelivery(store.database, document.id, now);
    return id;
  }

  it('tells a database outage once and delivers once the database is back', async () => {
    const id = await pendingDelivery('model-a');
    const flaky = flakyDatabase(store.database);
    const logs: string[] = [];
    let onLog = (): void => undefined;
    const worker = new DeliveryWorker({
      database: flaky.database,
      clock: systemClock,
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
      pollMs: 1,
      log: (message) => {
        logs.push(message);
        onLog();
      },
    });
    await worker.drain();
    worker.start();
    await flaky.failuresReach(flaky.state.failures + 12);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('[way back] the delivery worker failed');

    // The pass that works again sends the delivery and records it, then says so.
    const recovered = new Promise<void>((resolve) => {
      onLog = () => {
        if (logs.some((line) => line.includes('works again after'))) resolve();
      };
    });
    flaky.state.down = false;
    await recovered;
    await worker.stop();
    expect(await new DeliveryStore(store.database).find(id)).toMatchObject({ state: 'delivered' });
    expect(upstream.requests.filter((r) => r.url.includes('/model-a/'))).toHaveLength(1);
    expect(logs).toHaveLength(2);
  });

  it('gives back the delivery it holds when stopped mid-attempt', async () => {
    const id = await pendingDelivery(HELD_MODEL);
    const worker = new DeliveryWorker({
      database: store.database,
      clock: systemClock,
      upstream: { v2: { url: upstream.url, apiKey: 'test-key' } },
    });
    const arrived = upstream.nextRequest(`/v2/extensions/rag/${HELD_MODEL}/documents`);
    worker.start();
    await arrived;
    const deliveries = new DeliveryStore(store.database);
    expect((await deliveries.find(id))?.lease_until).not.toBeNull();
    await worker.stop();
    expect(await deliveries.find(id)).toMatchObject({ state: 'pending', lease_until: null, attempts: 0 });
  });
});

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
