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
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentResponse } from '../../../src/api/review/schemas';
import { fixturesDir } from '../../../src/api/testing/fixtures-dir';
import { parseAppEvent } from '../../../src/api/v2/app-events';
import { createApp } from '../../app/create-app';
import { AppEventHub } from '../../app/events/app-event-hub';
import { forwardQueueEvents } from '../../app/events/forward-queue-events';
import { listen, type RunningServer } from '../../app/listen';
import { openSse, type SseBlock } from '../../app/test-support/sse-client';
import { startUpstream, type TestUpstream } from '../../app/test-support/upstream';
import type { Upstream } from '../../app/proxy/create-proxy';
import { JobFollower } from '../intake/job-follower';
import { DeliveryWorker } from '../wayback/delivery-worker';
import { mountReview } from '../http/mount-review';
import { openReview, type OpenedReview, type ReviewSettings } from '../open-review';
import { startPostgresCluster } from '../testing/postgres-cluster';
import { outageOf, type PostgresOutage } from '../testing/postgres-outage';
import { STORE_RETRY_AFTER_SECONDS } from './store-unavailable';

/** A v2 result with fields, so that a confirmation has something for the way back (RAG) to send. */
const V2_RESULT = readFileSync(
  path.join(fixturesDir, 'v2', 'products', 'extraction', 'standard_field_types.json'),
  'utf8',
);

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
    now: review.now,
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

interface Operator {
  id: string;
  headers: Record<string, string>;
}

async function operatorOn(copy: Copy, name: string): Promise<Operator> {
  const now = Date.now();
  const operator = await copy.review.operators.create({ name, role: 'operator', passwordHash: null }, now);
  const session = await copy.review.sessions.create(operator.id, now);
  return {
    id: operator.id,
    headers: {
      Cookie: `er_session=${session.token}`,
      'X-CSRF-Token': session.csrfToken,
      Origin: copy.server.url,
      'Sec-Fetch-Site': 'same-origin',
    },
  };
}

async function readyDocuments(review: OpenedReview, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-a', fileName: `doc-${n}.pdf` },
      Date.now(),
    );
    await review.queue.setResult(
      added.id,
      {
        json: V2_RESULT,
        resultId: `inf-${n}`,
        fieldsTotal: 2,
        fieldsToReview: 1,
      },
      Date.now(),
    );
    ids.push(added.id);
  }
  return ids;
}

/** One answer, or how it failed to come. Every request has a deadline far past any time-out here. */
type Outcome =
  { status: number; code?: string; retryAfter: string | null; body: unknown; ms: number } | { hung: string };

async function call(
  base: string,
  operator: Operator,
  method: string,
  route: string,
  body?: unknown,
): Promise<Outcome> {
  const started = performance.now();
  try {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { ...operator.headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    const code = (parsed as { code?: unknown } | null)?.code;
    return {
      status: response.status,
      ...(typeof code === 'string' ? { code } : {}),
      retryAfter: response.headers.get('retry-after'),
      body: parsed,
      // For the report only: how long the answer took.
      ms: performance.now() - started,
    };
  } catch (error) {
    return { hung: error instanceof Error ? error.message : String(error) };
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}.`);
    await pause(25);
  }
}

/**
 * An operator working the queue on one copy, as the review page does: poll the queue, take the next
 * document, correct a value, confirm; again. What the copy acknowledged (200) is kept, to be found
 * in the store afterwards; every answer is counted.
 */
class Worker {
  readonly outcomes: Outcome[] = [];
  readonly corrected: { documentId: string; value: string }[] = [];
  readonly confirmed = new Set<string>();
  acknowledged = 0;
  unavailable = 0;
  private running = true;
  private readonly done: Promise<void>;
  private serial = 0;

  constructor(
    private readonly base: string,
    private readonly operator: Operator,
    private readonly label: string,
  ) {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  private async send(method: string, route: string, body?: unknown): Promise<Outcome> {
    const outcome = await call(this.base, this.operator, method, route, body);
    this.outcomes.push(outcome);
    if ('status' in outcome && outcome.status === 200) this.acknowledged++;
    if ('status' in outcome && outcome.status === 503) this.unavailable++;
    return outcome;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const polled = await this.send('GET', '/api/review/documents?limit=20');
      const taken = await this.send('POST', '/api/review/next');
      if ('status' in taken && taken.status === 200) {
        const { document } = DocumentResponse.parse(taken.body);
        const value = `${this.label}-${++this.serial}`;
        const corrected = await this.send('PUT', `/api/review/documents/${document.id}/corrections`, {
          version: document.version,
          corrections: [{ path: 'field_simple_string', value }],
        });
        if ('status' in corrected && corrected.status === 200) {
          this.corrected.push({ documentId: document.id, value });
          const { document: after } = DocumentResponse.parse(corrected.body);
          const confirmed = await this.send('POST', `/api/review/documents/${document.id}/confirm`, {
            version: after.version,
          });
          if ('status' in confirmed && confirmed.status === 200) this.confirmed.add(document.id);
        }
      }
      const away = [polled, taken].some((o) => 'status' in o && o.status === 503);
      await pause(away ? 100 : 10);
    }
  }
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
      wayBack: { rag: true },
    };
    const target = { url: upstream.url, apiKey: 'server-key' };
    const a = await startCopy(settings, target);
    copies.push(a);
    const b = await startCopy(settings, target);
    copies.push(b);
    await readyDocuments(a.review, 60);
    const ann = await operatorOn(a, 'Ann');
    const bob = await operatorOn(b, 'Bob');

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
    const cid = await operatorOn(c, 'Cid');
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
    const dee = await operatorOn(copy, 'Dee');

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
