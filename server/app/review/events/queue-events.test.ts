/**
 * Queue changes reach every open browser at once (`event: queue` on /api/events), on both engines;
 * with PostgreSQL across app-server copies: two copies on one database, an operator works on one,
 * a browser connected to the other hears of it (LISTEN/NOTIFY).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueueEvent } from '@extraction-review/contract/app-events';
import { createApp } from '../../create-app';
import { AppEventHub } from '../../events/app-event-hub';
import { listen, type RunningServer } from '../../listen';
import { openSse, type SseBlock } from '@extraction-review/test-kit/app/sse-client';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { mountReview } from '../http/mount-review';

interface Copy {
  review: OpenedReview;
  hub: AppEventHub;
  server: RunningServer;
}

async function startCopy(settings: TestStore['settings']): Promise<Copy> {
  const review = await openReview(settings);
  const hub = new AppEventHub();
  review.bus.subscribe({ onChange: (change) => hub.publishQueue(change) });
  const server = await listen(
    createApp({ upstream: {}, staticDir: null, review: mountReview(review), events: hub }),
    {
      host: '127.0.0.1',
      port: 0,
    },
  );
  return { review, hub, server };
}

const queueEvents = (blocks: SseBlock[]) =>
  blocks.filter((b) => b.event === 'queue').map((b) => QueueEvent.parse(JSON.parse(b.data ?? '')));

describe.each(ENGINES)('queue events on %s', (engine) => {
  let store: TestStore;
  const copies: Copy[] = [];

  beforeAll(async () => {
    store = await openTestStore(engine);
  });
  afterAll(async () => {
    for (const copy of copies) {
      copy.hub.close();
      await copy.server.close();
      await copy.review.close();
    }
    await store.cleanup();
  });

  it('tells the browsers of every change, from whichever copy made it', async () => {
    const a = await startCopy(store.settings);
    copies.push(a);
    // With PostgreSQL, a second copy on the same database; embedded, the same copy.
    const b = engine === 'postgres' ? await startCopy(store.settings) : a;
    if (b !== a) copies.push(b);

    const operator = await a.review.operators.create(
      { name: 'Eve', role: 'operator', passwordHash: null },
      Date.now(),
    );
    // The stream is for signed-in operators: a session of Eve's, on copy B.
    const session = await b.review.sessions.create(operator.id, Date.now());
    const stream = await openSse(`${b.server.url}/api/events`, { Cookie: `er_session=${session.token}` });
    expect(stream.status).toBe(200);
    try {
      const added = await a.review.queue.addDocument(
        { apiVersion: 'v2', modelKey: 'm', fileName: 'live.pdf' },
        Date.now(),
      );
      await a.review.queue.setResult(
        added.id,
        { json: '{}', resultId: null, fieldsTotal: 1, fieldsToReview: 1 },
        Date.now(),
      );
      const taken = await a.review.queue.takeNext(operator.id, Date.now());
      expect(taken?.id).toBe(added.id);

      const blocks = await stream.waitFor(
        (all) => queueEvents(all).some((e) => e.state === 'in_review'),
        10_000,
      );
      const events = queueEvents(blocks).filter((e) => e.documentId === added.id);
      expect(events.map((e) => e.state)).toEqual(['processing', 'to_review', 'in_review']);
      expect(events.at(-1)).toMatchObject({ holderId: operator.id, version: taken?.version });
    } finally {
      stream.close();
    }
  });
});
