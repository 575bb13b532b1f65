/**
 * Issue 19's "A database restart kills every copy", as it was found: two app-server copies, each
 * `server/main.ts` in its own process with its own data directory, on one PostgreSQL (a private
 * server of this test, never the run's shared one) and one upstream; operators work the queue on
 * both over HTTP. PostgreSQL is stopped fast (`pg_ctl stop -m fast`) and started again:
 *
 * - neither process exits;
 * - `ready` turns 503 while it is down and 200 once it is back, on both copies;
 * - requests during the outage are answered (none hangs), `503-001` with `Retry-After` when they
 *   needed the store;
 * - every write the copies acknowledged is in the store afterwards;
 * - each copy listens again: a change made on copy A after the restart reaches a browser on copy B.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReview } from './review/open-review';
import { startPostgresCluster } from '@extraction-review/test-kit/review/postgres-cluster';
import { outageOf, type PostgresOutage } from '@extraction-review/test-kit/review/postgres-outage';
import {
  call,
  operatorOn,
  readyDocuments,
  until,
  Worker,
  type Outcome,
} from '@extraction-review/test-kit/review/queue-work';
import { STORE_RETRY_AFTER_SECONDS } from './review/db/store-unavailable';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import { openSse } from '@extraction-review/test-kit/app/sse-client';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';

async function readyStatus(copy: MainProcess): Promise<number | undefined> {
  try {
    const response = await fetch(`${copy.url}/api/health/ready`, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

describe('two server/main.ts copies through a PostgreSQL restart', () => {
  let outage: PostgresOutage;
  let url: string;
  let upstream: TestUpstream;
  const dirs: string[] = [];
  const copies: MainProcess[] = [];

  beforeAll(async () => {
    // One upstream for both copies; nothing here calls it but the readiness report and RAG.
    upstream = await startUpstream((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{}');
      });
    });
    const cluster = await startPostgresCluster();
    url = cluster.url;
    outage = outageOf(cluster);
  });
  afterAll(async () => {
    for (const copy of copies) await copy.stop('SIGKILL');
    await outage?.stop();
    await upstream?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function startCopy(): Promise<MainProcess> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-copy-'));
    dirs.push(dataDir);
    const copy = await startMainProcess({
      DATABASE_URL: url,
      APP_DATA_DIR: dataDir,
      UPSTREAM_V2_URL: upstream.url,
      UPSTREAM_V2_API_KEY: 'server-key',
      UPSTREAM_V1_URL: upstream.url,
      UPSTREAM_V1_API_KEY: 'server-key',
      DATABASE_STATEMENT_TIMEOUT_MS: '2000',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      READY_CHECK_TIMEOUT_MS: '1000',
      SHUTDOWN_DRAIN_MS: '0',
    });
    copies.push(copy);
    return copy;
  }

  it('keeps both copies up, 503-001 and not ready while it is down, and serving again after', async () => {
    const a = await startCopy();
    const b = await startCopy();
    const store = await openReview({ databaseUrl: url, dataDir: dirs[0] ?? '' });
    const ann = await operatorOn(store, a.url, 'Ann');
    const bob = await operatorOn(store, b.url, 'Bob');
    await readyDocuments(store, 60);
    await store.close();
    expect([await readyStatus(a), await readyStatus(b)]).toEqual([200, 200]);

    const stream = await openSse(`${b.url}/api/events`, { Cookie: bob.headers.Cookie ?? '' });
    expect(stream.status).toBe(200);
    const workers = [new Worker(a.url, ann, 'ann'), new Worker(b.url, bob, 'bob')];
    try {
      await until(() => workers.every((w) => w.confirmed.size >= 2), 30_000, 'work before the outage');

      await outage.stopFast();
      const before = workers.map((w) => w.unavailable);
      let notReady = false;
      await until(
        async () =>
          (notReady ||= (await readyStatus(a)) === 503 && (await readyStatus(b)) === 503) &&
          workers.every((w, i) => w.unavailable >= (before[i] ?? 0) + 3),
        30_000,
        'both copies not ready, and answering 503 while PostgreSQL is down',
      );

      await outage.startAgain();
      await until(
        async () => (await readyStatus(a)) === 200 && (await readyStatus(b)) === 200,
        60_000,
        'both copies ready again',
      );
      const acknowledged = workers.map((w) => w.confirmed.size);
      await until(
        () => workers.every((w, i) => w.confirmed.size >= (acknowledged[i] ?? 0) + 2),
        30_000,
        'work again after the restart',
      );
    } finally {
      for (const worker of workers) await worker.stop();
    }
    // Neither process exited.
    for (const copy of [a, b]) expect([copy.child.exitCode, copy.child.signalCode]).toEqual([null, null]);

    const all = workers.flatMap((w) => w.outcomes);
    expect(all.filter((o) => 'hung' in o)).toEqual([]);
    const answered = all.filter((o): o is Exclude<Outcome, { hung: string }> => 'status' in o);
    expect(answered.filter((o) => ![200, 204, 409, 503].includes(o.status))).toEqual([]);
    const unavailable = answered.filter((o) => o.status === 503);
    expect(unavailable.length).toBeGreaterThanOrEqual(6);
    for (const o of unavailable) {
      expect(o.code).toBe('503-001');
      expect(o.retryAfter).toBe(String(STORE_RETRY_AFTER_SECONDS));
    }

    // Every acknowledged write is in the store.
    const after = await openReview({ databaseUrl: url, dataDir: dirs[0] ?? '' });
    try {
      for (const worker of workers) {
        for (const { documentId, value } of worker.corrected) {
          const rows = await after.database.db
            .selectFrom('corrections')
            .select('value_json')
            .where('document_id', '=', documentId)
            .execute();
          expect(rows.map((r) => r.value_json)).toContain(JSON.stringify(value));
        }
        for (const documentId of worker.confirmed) {
          expect((await after.queue.find(documentId))?.state).toBe('confirmed');
        }
      }
    } finally {
      await after.close();
    }

    // Copy B listens again: Ann takes a document on copy A, and Bob's browser on B hears of it.
    const taken = await call(a.url, ann, 'POST', '/api/review/next');
    expect(taken).toMatchObject({ status: 200 });
    const id = 'status' in taken ? (taken.body as { document: { id: string } }).document.id : '?';
    await stream.waitFor(
      (blocks) => blocks.some((block) => block.event === 'queue' && (block.data ?? '').includes(id)),
      10_000,
    );
    stream.close();
    console.info(
      `[figures] main.ts copies through a restart: ${answered.length} answers, ${unavailable.length} × 503-001 ` +
        `(slowest ${Math.round(Math.max(...unavailable.map((o) => o.ms)))} ms), ` +
        `${workers.reduce((n, w) => n + w.confirmed.size, 0)} confirmations acknowledged and kept`,
    );
  });
});
