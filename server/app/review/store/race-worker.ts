/**
 * A thread of operators for queue-races.test.ts: its own connection(s) to the store, its operators
 * each taking and confirming documents as fast as they can once the test says go. Each thread has
 * its own SQLite connection (or PostgreSQL pool), so the races are the engine's, not the event loop's.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReviewDatabase, type DatabaseSettings } from '../db/open-database';
import { QueueStore } from './queue-store';

export interface RaceWorkerData {
  entry: string;
  settings: DatabaseSettings;
  operatorIds: string[];
  leaseMs: number;
}

export interface Taking {
  documentId: string;
  operatorId: string;
  confirmed: boolean;
}

const data = workerData as RaceWorkerData;
const port = parentPort;
if (port === null) throw new Error('race-worker runs as a worker thread');

const database = await openReviewDatabase({ ...data.settings, maxConnections: data.operatorIds.length });
const queue = new QueueStore(database, data.leaseMs);

async function operate(operatorId: string): Promise<Taking[]> {
  const takings: Taking[] = [];
  for (;;) {
    const document = await queue.takeNext(operatorId, Date.now());
    if (document === undefined) return takings;
    const decided = await queue.decide(
      document.id,
      operatorId,
      document.version,
      'confirmed',
      null,
      Date.now(),
    );
    takings.push({ documentId: document.id, operatorId, confirmed: decided.ok });
  }
}

port.on('message', (message: string) => {
  if (message === 'go') {
    void Promise.all(data.operatorIds.map(operate)).then(
      (results) => port.postMessage({ type: 'done', takings: results.flat() }),
      (error: unknown) => port.postMessage({ type: 'error', message: String(error) }),
    );
  } else if (message === 'close') {
    void database.close().then(() => port.close());
  }
});
port.postMessage({ type: 'ready' });
