/**
 * When the database goes away, the copies stay up and say so; when it returns, they work again
 * without a restart (issue 19, "Survive the database"). Each PostgreSQL test runs its own private
 * server (never the run's shared one), stopped, started and frozen at will.
 *
 * - PostgreSQL stopped fast and started again while two app-server copies on it are worked by two
 *   operators over HTTP (poll, take, correct, confirm): nothing throws out of either copy (vitest
 *   fails a file on an unhandled error), every request during the outage is answered (none hangs),
 *   with `503-001` and `Retry-After` when it needed the store, every acknowledged write is in the
 *   store afterwards, and each copy's LISTEN connection is back: a browser on copy B is told to
 *   refetch (`resync`, `missed`) and hears a change made on copy A after the restart.
 * - A frozen PostgreSQL (SIGSTOP of the server and its backends) answers `503-001` within the
 *   statement time-out, from the review API, the session check in front of the event stream and the
 *   gateway, and works again after SIGCONT.
 * - SQLite: the write lock held by another connection past the busy time-out is `503-001`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAppEvent } from '@extraction-review/contract/app-events';
import { createApp } from '../../create-app';
import { AppEventHub } from '../../events/app-event-hub';
import { forwardQueueEvents } from '../../events/forward-queue-events';
import { listen, type RunningServer } from '../../listen';
import { openSse, type SseBlock } from '@extraction-review/test-kit/app/sse-client';
import { startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import type { Upstream } from '../../upstream/upstream-client';
import { JobFollower } from '../intake/job-follower';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { mountReview } from '../http/mount-review';
import { openReview, type OpenedReview, type ReviewSettings } from '../open-review';
import { startPostgresCluster } from '@extraction-review/test-kit/review/postgres-cluster';
import { outageOf, type PostgresOutage } from '@extraction-review/test-kit/review/postgres-outage';
import {
  call,
  operatorOn,
  pause,
  readyDocuments,
  until,
  Worker,
  type Operator,
  type Outcome,
} from '@extraction-review/test-kit/review/queue-work';
import { STORE_RETRY_AFTER_SECONDS } from './store-unavailable';

interface Copy {
  review: OpenedReview;
  hub: AppEventHub;
  server: RunningServer;
  close(): Promise<void>;
}

/**
 * An app-server copy as server/main.ts wires it: the review store, the queue's events to the browsers,
 * the job follower and the way back's delivery worker running, the app listening.
 */
async function startCopy(settings: ReviewSettings, upstream?: Upstream): Promise<Copy> {
  const review = await openReview(settings);
  const hub = new AppEventHub();
  forwardQueueEvents(review.bus, hub);
  const upstreams = { v2: upstream, v1: upstream };
  const follower = new JobFollower({ review, upstream: upstreams });
  follower.start();
  const deliveries = new DeliveryWorker({
    database: review.database,
    clock: review.clock,
    upstream: upstreams,
    webhooks: review.webhooks,
  });
  review.bus.subscribe({ onChange: (change) => change.state === 'confirmed' && deliveries.wake() });
  deliveries.start();
  const server = await listen(
    createApp({ upstream: upstreams, staticDir: null, review: mountReview(review), events: hub }),
    { host: '127.0.0.1', port: 0 },
  );
  return {
    review,
    hub,
    server,
    close: async () => {
      hub.close();
      await server.close();
      await follower.stop();
      await deliveries.stop();
      await review.close();
    },
  };
}

const resyncs = (blocks: SseBlock[]) =>
  blocks
    .filter((b) => b.event === 'resync')
    .map((b) => parseAppEvent('resync', b.data ?? ''))
    .filter((e) => e?.type === 'resync');

describe('PostgreSQL stopped and started under two working copies', () => {
  let outage: PostgresOutage;
  let url: string;
  let dataDir: string;
  let upstream: TestUpstream;
  const copies: Copy[] = [];

  beforeAll(async () => {
    // Takes the way back's validated results (RAG), as the embedded reference service does.
    upstream = await startUpstream((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(201, { 'Content-Type': 'application/json' });
        res.end('{}');
      });
    });
    const cluster = await startPostgresCluster();
    url = cluster.url;
    outage = outageOf(cluster);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-away-'));
  });
  afterAll(async () => {
    for (const copy of copies) await copy.close();
    await outage?.stop();
    await upstream?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503-001 while it is down, loses nothing acknowledged, and works again with its events', async () => {
    const cluster = outage;
    const settings: ReviewSettings = {
      databaseUrl: url,
      dataDir,
      statementTimeoutMs: 2_000,
      connectTimeoutMs: 1_000,
      // Each confirmation also writes a delivery for the way back, sent by the copies' workers.
      deliveries: { rag: true },
    };
    const target = { url: upstream.url, apiKey: 'server-key' };
    const a = await startCopy(settings, target);
    copies.push(a);
    const b = await startCopy(settings, target);
    copies.push(b);
    await readyDocuments(a.review, 60);
    const ann = await operatorOn(a.review, a.server.url, 'Ann');
    const bob = await operatorOn(b.review, b.server.url, 'Bob');

    // A browser on copy B, open through it all.
    const stream = await openSse(`${b.server.url}/api/events`, { Cookie: bob.headers.Cookie ?? '' });
    expect(stream.status).toBe(200);

    const workers = [new Worker(a.server.url, ann, 'ann'), new Worker(b.server.url, bob, 'bob')];
    try {
      await until(() => workers.every((w) => w.confirmed.size >= 2), 20_000, 'work before the outage');

      await cluster.stopFast();
      const before = workers.map((w) => w.unavailable);
      await until(
        () => workers.every((w, i) => w.unavailable >= (before[i] ?? 0) + 3),
        20_000,
        'each copy to answer 503 while PostgreSQL is down',
      );
      expect(a.review.bus.connected()).toBe(false);
      expect(b.review.bus.connected()).toBe(false);

      await cluster.startAgain();
      const acknowledged = workers.map((w) => w.confirmed.size);
      await until(
        () => workers.every((w, i) => w.confirmed.size >= (acknowledged[i] ?? 0) + 2),
        30_000,
        'work again after the restart',
      );
      await until(() => a.review.bus.connected() && b.review.bus.connected(), 30_000, 'LISTEN again');
    } finally {
      for (const worker of workers) await worker.stop();
    }

    // Every request was answered; what was not a success or an expected refusal was 503-001.
    const all = workers.flatMap((w) => w.outcomes);
    expect(all.filter((o) => 'hung' in o)).toEqual([]);
    const answered = all.filter((o): o is Exclude<Outcome, { hung: string }> => 'status' in o);
    const unexpected = answered.filter((o) => ![200, 204, 409, 503].includes(o.status));
    expect(unexpected).toEqual([]);
    const unavailable = answered.filter((o) => o.status === 503);
    expect(unavailable.length).toBeGreaterThanOrEqual(6);
    for (const o of unavailable) {
      expect(o.code).toBe('503-001');
      expect(o.retryAfter).toBe(String(STORE_RETRY_AFTER_SECONDS));
    }

    // Every acknowledged write is in the store.
    for (const worker of workers) {
      for (const { documentId, value } of worker.corrected) {
        const rows = await a.review.database.db
          .selectFrom('corrections')
          .select('value_json')
          .where('document_id', '=', documentId)
          .execute();
        expect(rows.map((r) => r.value_json)).toContain(JSON.stringify(value));
      }
      for (const documentId of worker.confirmed) {
        expect((await b.review.queue.find(documentId))?.state).toBe('confirmed');
      }
    }
    // And the way back has what every acknowledged confirmation wrote for it: delivered, or (an
    // attempt whose outcome could not be recorded while the database was away) held by its lease
    // and sent again once the lease runs out.
    const confirmed = workers.flatMap((w) => [...w.confirmed]);
    const deliveries = async () =>
      a.review.database.db
        .selectFrom('deliveries')
        .select(['document_id', 'state', 'lease_until'])
        .where('document_id', 'in', confirmed)
        .execute();
    await until(
      async () => (await deliveries()).every((d) => d.state === 'delivered' || d.lease_until !== null),
      30_000,
      'the deliveries',
    );
    const sent = await deliveries();
    expect(new Set(sent.map((d) => d.document_id))).toEqual(new Set(confirmed));
    const awaitingLease = sent.filter((d) => d.state !== 'delivered');
    expect(awaitingLease.map((d) => d.state)).toEqual(awaitingLease.map(() => 'pending'));

    // The browser on B was told to refetch, and hears a change made on A after the restart.
    await stream.waitFor((blocks) => resyncs(blocks).some((e) => e?.data.reason === 'missed'), 10_000);
    const [fresh] = await readyDocuments(a.review, 1);
    await stream.waitFor(
      (blocks) =>
        blocks.some(
          (block) => block.event === 'queue' && block.data !== undefined && block.data.includes(fresh ?? '?'),
        ),
      10_000,
    );
    stream.close();
    console.info(
      `[figures] restart: ${answered.length} answers, ${unavailable.length} × 503-001 ` +
        `(slowest ${Math.round(Math.max(...unavailable.map((o) => o.ms)))} ms), ` +
        `${confirmed.length} confirmations acknowledged and kept, ` +
        `${sent.length - awaitingLease.length} of their deliveries sent, ${awaitingLease.length} held by a lease`,
    );
  });

  it('answers 503-001 within the statement time-out while it is frozen, and works after it thaws', async () => {
    const statementTimeoutMs = 500;
    const c = await startCopy({
      databaseUrl: url,
      dataDir,
      statementTimeoutMs,
      connectTimeoutMs: statementTimeoutMs,
    });
    copies.push(c);
    const cid = await operatorOn(c.review, c.server.url, 'Cid');
    const { key } = await c.review.integrations.create({ name: 'pipeline' }, Date.now());
    // Warm: the pool holds a connection, whose backend freezes with the server.
    expect(await call(c.server.url, cid, 'GET', '/api/review/documents')).toMatchObject({ status: 200 });

    const pipeline: Operator = { id: 'pipeline', headers: { Authorization: key } };
    const v1: Operator = { id: 'pipeline', headers: { Authorization: `Token ${key}` } };
    const probes = [
      { what: 'the review API', run: () => call(c.server.url, cid, 'GET', '/api/review/documents') },
      { what: 'a change', run: () => call(c.server.url, cid, 'POST', '/api/review/next') },
      {
        what: 'the event stream (its session check)',
        run: () => call(c.server.url, cid, 'GET', '/api/events'),
      },
      { what: 'the proxy (its session check)', run: () => call(c.server.url, cid, 'GET', '/api/v2/jobs/x') },
      {
        what: 'the gateway',
        run: () => call(c.server.url, pipeline, 'GET', '/v2/jobs/00000000-0000-4000-8000-000000000000'),
      },
      { what: "the gateway's v1", run: () => call(c.server.url, v1, 'GET', '/v1/documents/queue/x') },
    ];
    const timings: string[] = [];
    outage.freeze();
    try {
      const answers = await Promise.all(
        probes.map(async ({ what, run }) => {
          const started = performance.now();
          const outcome = await run();
          timings.push(`${what} ${Math.round(performance.now() - started)} ms`);
          return { what, outcome };
        }),
      );
      for (const { what, outcome } of answers) {
        expect({ what, outcome }).toMatchObject({
          what,
          outcome: { status: 503, retryAfter: String(STORE_RETRY_AFTER_SECONDS) },
        });
        // The v1 envelope carries no problem code; every other answer is problem details.
        if (!what.includes('v1'))
          expect({ what, code: 'code' in outcome ? outcome.code : undefined }).toEqual({
            what,
            code: '503-001',
          });
      }
    } finally {
      outage.thaw();
    }
    console.info(
      `[figures] frozen PostgreSQL, statement time-out ${statementTimeoutMs} ms: ${timings.join(', ')}`,
    );
    let after = await call(c.server.url, cid, 'GET', '/api/review/documents');
    for (let tries = 0; !('status' in after && after.status === 200) && tries < 100; tries++) {
      await pause(100);
      after = await call(c.server.url, cid, 'GET', '/api/review/documents');
    }
    expect(after).toMatchObject({ status: 200 });
  });
});

describe('SQLite with its write lock held by another connection', () => {
  let dataDir: string;
  let copy: Copy | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'review-busy-'));
  });
  afterAll(async () => {
    await copy?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503-001 once the busy time-out passes, and works when the lock is let go', async () => {
    copy = await startCopy({ dataDir, statementTimeoutMs: 300 });
    await readyDocuments(copy.review, 1);
    const dee = await operatorOn(copy.review, copy.server.url, 'Dee');

    // The operators command, or a second server started by mistake, in the middle of a write.
    const other = new Database(path.join(dataDir, 'review.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const taken = await call(copy.server.url, dee, 'POST', '/api/review/next');
      expect(taken).toMatchObject({
        status: 503,
        code: '503-001',
        retryAfter: String(STORE_RETRY_AFTER_SECONDS),
      });
    } finally {
      other.exec('COMMIT');
      other.close();
    }
    expect(await call(copy.server.url, dee, 'POST', '/api/review/next')).toMatchObject({ status: 200 });
  });
});
