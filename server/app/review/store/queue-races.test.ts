/**
 * Real races on both engines: 20 operators in 4 threads, each thread with its own connection(s) to the
 * store, call "next" and confirm concurrently on 100 documents, three rounds over. Every document must
 * be taken by exactly one operator and confirmed exactly once; nobody ever gets a document another
 * holds.
 */
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { OperatorStore } from './operator-store';
import { QueueStore } from './queue-store';
import type { RaceWorkerData, Taking } from './race-worker';

const BOOTSTRAP = new URL(
  '../../../../packages/document-text/src/threads/worker-bootstrap.mjs',
  import.meta.url,
);
const ENTRY = new URL('./race-worker.ts', import.meta.url).href;
const THREADS = 4;
const OPERATORS_PER_THREAD = 5;
const DOCUMENTS = 100;
const ROUNDS = 3;
const LEASE = 10 * 60_000;

type Reply = { type: 'ready' } | { type: 'done'; takings: Taking[] } | { type: 'error'; message: string };

function nextReply(worker: Worker): Promise<Reply> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe.each(ENGINES)('concurrent operators on %s', (engine) => {
  let store: TestStore;
  let operatorIds: string[];

  beforeAll(async () => {
    store = await openTestStore(engine);
    const operators = new OperatorStore(store.database);
    operatorIds = [];
    for (let i = 0; i < THREADS * OPERATORS_PER_THREAD; i++) {
      operatorIds.push(
        (await operators.create({ name: `op-${i}`, role: 'operator', passwordHash: null }, 0)).id,
      );
    }
  });
  afterAll(async () => {
    await store.cleanup();
  });

  it(`never gives one of ${DOCUMENTS} documents to two of ${THREADS * OPERATORS_PER_THREAD} operators`, async () => {
    const queue = new QueueStore(store.database, LEASE);
    // The threads start once for the three rounds: each start compiles the worker's TypeScript, which
    // on a loaded machine (a full CI run) cost more than the races themselves.
    const workers = Array.from({ length: THREADS }, (_, t) => {
      const workerData: RaceWorkerData = {
        entry: ENTRY,
        settings: store.settings,
        operatorIds: operatorIds.slice(t * OPERATORS_PER_THREAD, (t + 1) * OPERATORS_PER_THREAD),
        leaseMs: LEASE,
      };
      return new Worker(BOOTSTRAP, { workerData });
    });
    try {
      // Everybody connected and waiting.
      await Promise.all(workers.map(async (w) => expect(await nextReply(w)).toEqual({ type: 'ready' })));
      for (let round = 0; round < ROUNDS; round++) {
        const ids = new Set<string>();
        const now = Date.now();
        for (let i = 0; i < DOCUMENTS; i++) {
          const added = await queue.addDocument(
            { apiVersion: 'v2', modelKey: 'm', fileName: `r${round}-${i}.pdf` },
            now,
          );
          await queue.setResult(
            added.id,
            { json: '{}', resultId: null, fieldsTotal: 1, fieldsToReview: 1 },
            now + i,
          );
          ids.add(added.id);
        }

        // Then all at once.
        const replies = workers.map(nextReply);
        for (const worker of workers) worker.postMessage('go');
        const takings: Taking[] = [];
        for (const reply of await Promise.all(replies)) {
          if (reply.type !== 'done') throw new Error(`worker failed: ${JSON.stringify(reply)}`);
          takings.push(...reply.takings);
        }

        const takenIds = takings.map((t) => t.documentId);
        expect(takenIds.length, 'takings').toBe(DOCUMENTS);
        expect(new Set(takenIds)).toEqual(ids);
        expect(takings.every((t) => t.confirmed)).toBe(true);
        // The work was shared: more than one thread took documents.
        const threadsThatWorked = new Set(
          takings.map((t) => Math.floor(operatorIds.indexOf(t.operatorId) / OPERATORS_PER_THREAD)),
        );
        expect(threadsThatWorked.size).toBeGreaterThan(1);
        const counts = await queue.countByState(Date.now());
        expect(counts.to_review + counts.in_review).toBe(0);
      }
    } finally {
      for (const worker of workers) worker.postMessage('close');
      await Promise.all(workers.map((w) => new Promise((resolve) => w.once('exit', resolve))));
    }
    expect((await queue.countByState(Date.now())).confirmed).toBe(DOCUMENTS * ROUNDS);
  });
});
