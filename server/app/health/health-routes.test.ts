/**
 * `/api/health/live` and `/api/health/ready` over real HTTP, on an app server with a review store on
 * each engine, as main.ts composes its checks (review-checks.ts): no session needed; `200` with every
 * check named; an unreachable upstream reported, never failing; `503-002` naming the failing check
 * once the copy drains. On a private PostgreSQL frozen with SIGSTOP: `ready` answers `503-002` with
 * the database check timed out (the probe is never held by the store), `live` and `/api/health` still
 * answer `200`, and `ready` is `200` again after SIGCONT.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { mountReview } from '../review/http/mount-review';
import { openReview, type OpenedReview } from '../review/open-review';
import {
  startPostgresCluster,
  type PostgresCluster,
} from '@extraction-review/test-kit/review/postgres-cluster';
import { outageOf, type PostgresOutage } from '@extraction-review/test-kit/review/postgres-outage';
import { createApp, type UpstreamTarget } from '../create-app';
import { listen, type RunningServer } from '../listen';
import { json, rawRequest } from '@extraction-review/test-kit/app/http-client';
import type { ReadyBody } from './health-routes';
import { Readiness, type CheckResult } from './readiness';
import { reviewReadinessChecks } from './review-checks';

interface ProblemWithChecks {
  status: number;
  code: string;
  detail: string;
  checks: Record<string, CheckResult>;
}

/** A URL where nothing listens (a port taken and released). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

async function serve(
  review: OpenedReview,
  upstream: { v2?: UpstreamTarget; v1?: UpstreamTarget },
  timeoutMs: number,
): Promise<{ server: RunningServer; readiness: Readiness }> {
  const readiness = new Readiness({ timeoutMs, checks: reviewReadinessChecks(review, upstream) });
  const app = createApp({ upstream, staticDir: null, review: mountReview(review), readiness });
  return { server: await listen(app, { host: '127.0.0.1', port: 0 }), readiness };
}

describe.each(ENGINES)('health for load balancers, on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let readiness: Readiness;
  let upstream: UpstreamTarget;

  beforeAll(async () => {
    store = await openTestStore(engine);
    review = await openReview(store.settings);
    upstream = { url: await deadUrl(), apiKey: 'k' };
    ({ server, readiness } = await serve(review, { v2: upstream, v1: upstream }, 2_000));
  });

  afterAll(async () => {
    await server?.close();
    await review?.close();
    await store?.cleanup();
  });

  it('live answers 200 without a session', async () => {
    const res = await rawRequest(`${server.url}/api/health/live`);
    expect(res.status).toBe(200);
    expect(json(res)).toEqual({ status: 'live' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('ready answers 200 without a session, naming every check; the unreachable upstream is a detail', async () => {
    const res = await rawRequest(`${server.url}/api/health/ready`);
    expect(res.status).toBe(200);
    const body = json<ReadyBody>(res);
    expect(body.status).toBe('ready');
    expect(body.checks).toMatchObject({
      database: { state: 'ok', required: true },
      migrations: { state: 'ok', required: true },
      upstream: { state: 'failing', required: false, detail: expect.stringMatching(/^unreachable/) },
      shutdown: { state: 'ok', required: true },
    });
    // The LISTEN and file storage checks, where the bus and the storage can tell.
    if (typeof (review.bus as { connected?: unknown }).connected === 'function') {
      expect(body.checks.listen).toEqual({ state: 'ok', required: true });
    }
    if (typeof (review.files as { check?: unknown } | undefined)?.check === 'function') {
      expect(body.checks.fileStorage).toMatchObject({ state: 'ok', required: true });
    }
    // Never the upstream's address or key.
    expect(res.body.toString()).not.toContain(new URL(upstream.url).port);
  });

  it('/api/health stays as it was', async () => {
    const res = await rawRequest(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(json(res)).toEqual({
      status: 'ok',
      upstream: { v2: new URL(upstream.url).origin, v1: new URL(upstream.url).origin },
    });
  });

  it('ready answers 503-002 naming the shutdown once the copy drains, while live stays 200', async () => {
    readiness.startDraining('SIGTERM received: this copy is shutting down');
    const res = await rawRequest(`${server.url}/api/health/ready`);
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const problem = json<ProblemWithChecks>(res);
    expect(problem).toMatchObject({ status: 503, code: '503-002' });
    expect(problem.detail).toContain('shutdown');
    expect(problem.checks.shutdown).toMatchObject({ state: 'failing' });
    expect(problem.checks.database).toMatchObject({ state: 'ok' });
    expect((await rawRequest(`${server.url}/api/health/live`)).status).toBe(200);
  });
});

describe('health with the PostgreSQL server frozen (SIGSTOP)', () => {
  let cluster: PostgresCluster;
  let outage: PostgresOutage;
  let dataDir: string;
  let review: OpenedReview;
  let server: RunningServer;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    outage = outageOf(cluster);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'health-frozen-'));
    review = await openReview({ databaseUrl: cluster.url, dataDir });
    ({ server } = await serve(review, {}, 300));
  }, 90_000);

  afterAll(async () => {
    outage?.thaw();
    await server?.close();
    await review?.close().catch(() => undefined);
    await outage?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('ready is 503-002 with the database timed out, live and /api/health 200; 200 again after SIGCONT', async () => {
    expect((await rawRequest(`${server.url}/api/health/ready`)).status).toBe(200);

    outage.freeze();
    try {
      // Three probes at once, then one more: each answered, none held by the frozen store.
      const probes = await Promise.all([1, 2, 3].map(() => rawRequest(`${server.url}/api/health/ready`)));
      probes.push(await rawRequest(`${server.url}/api/health/ready`));
      for (const probe of probes) {
        expect(probe.status).toBe(503);
        const problem = json<ProblemWithChecks>(probe);
        expect(problem.code).toBe('503-002');
        expect(problem.checks.database).toMatchObject({ state: 'timeout', required: true });
        expect(problem.detail).toContain('database (timeout');
      }
      expect((await rawRequest(`${server.url}/api/health/live`)).status).toBe(200);
      expect((await rawRequest(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      outage.thaw();
    }

    // Back: the hung check's query completes, and the next probes find the store answering.
    let ready = await rawRequest(`${server.url}/api/health/ready`);
    for (let attempt = 0; attempt < 100 && ready.status !== 200; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await rawRequest(`${server.url}/api/health/ready`);
    }
    expect(ready.status).toBe(200);
    expect(json<ReadyBody>(ready).checks.database).toEqual({ state: 'ok', required: true });
  });
});
