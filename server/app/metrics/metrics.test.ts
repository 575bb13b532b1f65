/**
 * The metrics over real HTTP (issue 22): `/metrics` is no route unless configured, refused (`401-014`)
 * without the bearer token or with another, served in Prometheus' text format with it and, without a
 * token, on the listener of its own; the counters move with the review's actions (an operator's take
 * and confirmation through the API, an automatic confirmation), the request histogram with the
 * answers, the queue's gauge with the documents (counted at most every 15 s); a database away while
 * the counts are refreshed keeps the last figures and counts the failure, the scrape still answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOperators,
  addReadyDocument,
  expectProblem,
  signedIn,
  type ReviewBrowser,
} from '@extraction-review/test-kit/review/review-browser';
import { flakyDatabase } from '@extraction-review/test-kit/review/flaky-database';
import { openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { DocumentResponse } from '@extraction-review/contract/review/schemas';
import { createApp } from '../create-app';
import { listen, type RunningServer } from '../listen';
import { mountReview } from '../review/http/mount-review';
import { openReview, type OpenedReview } from '../review/open-review';
import { QueueStore } from '../review/store/queue-store';
import { AppMetrics } from './app-metrics';
import { metricsOnlyApp } from './metrics-route';

const T0 = Date.UTC(2026, 0, 5, 9);
const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of the sample `name` whose labels include `labels` (undefined when there is none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

let now = T0;
let store: TestStore;
let review: OpenedReview;
let metrics: AppMetrics;
let server: RunningServer;
let metricsServer: RunningServer;
let alice: ReviewBrowser;
/** The upstream: answers 404 to everything. */
let upstream: Server;

beforeAll(async () => {
  upstream = createServer((_request, response) => {
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  store = await openTestStore('sqlite');
  review = await openReview({ ...store.settings, clock: { now: () => now } });
  metrics = new AppMetrics({ review });
  const app = createApp({
    upstream: { v2: { url: upstreamUrl, apiKey: 'upstream-key' } },
    staticDir: null,
    review: mountReview(review),
    metrics: { metrics, token: TOKEN },
  });
  server = await listen(app, { host: '127.0.0.1', port: 0 });
  metricsServer = await listen(metricsOnlyApp(metrics), { host: '127.0.0.1', port: 0 });
  await addOperators(review, { Alice: 'operator' }, T0);
  alice = await signedIn(server.url, 'Alice');
});

afterAll(async () => {
  await metricsServer.close();
  await server.close();
  await review.close();
  await store.cleanup();
  await new Promise((resolve) => upstream.close(resolve));
});

const scrape = async (base = server.url, token: string | undefined = TOKEN): Promise<string> => {
  const response = await fetch(`${base}/metrics`, {
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

describe('GET /metrics', () => {
  it('is no route unless configured: without metrics, and with the separate listener only', async () => {
    const plain = createApp({ upstream: {}, staticDir: null });
    await expectProblem(await plain.request('/metrics'), 404, '404-015');
    const portOnly = createApp({ upstream: {}, staticDir: null, metrics: { metrics } });
    await expectProblem(await portOnly.request('/metrics'), 404, '404-015');
  });

  it('refuses a request without the token or with another (401-014), answers with it', async () => {
    const missing = await expectProblem(await fetch(`${server.url}/metrics`), 401, '401-014');
    expect(missing.detail).toMatch(/Bearer <METRICS_TOKEN>/);
    for (const authorization of [`Bearer ${TOKEN}x`, 'Bearer wrong', `Basic ${TOKEN}`, TOKEN]) {
      const refused = await fetch(`${server.url}/metrics`, { headers: { Authorization: authorization } });
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      await expectProblem(refused, 401, '401-014');
    }
    const text = await scrape();
    expect(sample(text, 'extraction_review_process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE extraction_review_http_request_duration_seconds histogram');
    expect(sample(text, 'extraction_review_event_stream_clients')).toBe(0);
  });

  it('is served without a token on the listener of its own, and nothing else there', async () => {
    const text = await scrape(metricsServer.url, undefined);
    expect(text).toContain('# TYPE extraction_review_review_actions_total counter');
    await expectProblem(await fetch(`${metricsServer.url}/api/health`), 404, '404-003');
  });
});

describe('the figures', () => {
  it('move with the review: actions, confirmations, requests, the queue by state', async () => {
    const before = await scrape();
    expect(sample(before, 'extraction_review_queue_documents', { state: 'to_review' })).toBeUndefined();

    const waiting = await addReadyDocument(review, 'waiting.pdf', now, { fieldsTotal: 2, fieldsToReview: 1 });
    // A millisecond later: the next after `waiting` (the queue gives the oldest result first).
    await addReadyDocument(review, 'second.pdf', now + 1, { fieldsTotal: 2, fieldsToReview: 1 });
    const added = await review.queue.addDocument(
      { apiVersion: 'v2', modelKey: 'model-b', fileName: 'auto.pdf' },
      now,
    );
    await review.queue.setResult(
      added.id,
      {
        json: JSON.stringify({ inference: { id: 'i', result: { fields: {} } } }),
        resultId: 'i',
        fieldsTotal: 1,
        fieldsToReview: 0,
      },
      now,
      { review: false, reasons: ['every field certain'] },
    );

    const next = await alice.send('POST', '/api/review/next');
    const taken = DocumentResponse.parse(await next.json()).document;
    expect(taken.id).toBe(waiting);
    now += 90_000;
    const confirmed = await alice.send('POST', `/api/review/documents/${waiting}/confirm`, {
      version: taken.version,
    });
    expect(confirmed.status).toBe(200);

    const after = await scrape();
    expect(sample(after, 'extraction_review_review_actions_total', { action: 'take' })).toBe(1);
    expect(sample(after, 'extraction_review_review_actions_total', { action: 'confirm' })).toBe(1);
    expect(sample(after, 'extraction_review_documents_confirmed_total', { by: 'operator' })).toBe(1);
    expect(sample(after, 'extraction_review_documents_confirmed_total', { by: 'auto' })).toBe(1);
    // 90 s from the take (on this copy) and from the result to the decision.
    for (const name of ['review_duration_seconds', 'review_decision_age_seconds']) {
      expect(sample(after, `extraction_review_${name}_sum`, { decision: 'confirmed' })).toBe(90);
      expect(sample(after, `extraction_review_${name}_bucket`, { decision: 'confirmed', le: '60' })).toBe(0);
      expect(sample(after, `extraction_review_${name}_bucket`, { decision: 'confirmed', le: '120' })).toBe(1);
    }
    const confirmRoute = { method: 'POST', route: '/api/review/documents/:id/confirm', status: '200' };
    expect(sample(after, 'extraction_review_http_request_duration_seconds_count', confirmRoute)).toBe(1);
    expect(
      sample(after, 'extraction_review_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/metrics',
        status: '401',
      }),
    ).toBeGreaterThanOrEqual(5);

    // The counts are at most 15 s old: a minute and a half went by since the last, so they are new.
    expect(sample(after, 'extraction_review_queue_documents', { state: 'confirmed', model: 'model-a' })).toBe(
      1,
    );
    expect(sample(after, 'extraction_review_queue_documents', { state: 'confirmed', model: 'model-b' })).toBe(
      1,
    );
    expect(sample(after, 'extraction_review_queue_documents', { state: 'to_review', model: 'model-a' })).toBe(
      1,
    );
    expect(sample(after, 'extraction_review_outbox_pending_deliveries')).toBe(0);
    expect(sample(after, 'extraction_review_job_follower_lag_seconds')).toBe(0);

    // Within 15 s of that count, a new document is not counted yet: no count per scrape.
    await addReadyDocument(review, 'third.pdf', now, { fieldsTotal: 1, fieldsToReview: 1 });
    const cached = await scrape();
    expect(
      sample(cached, 'extraction_review_queue_documents', { state: 'to_review', model: 'model-a' }),
    ).toBe(1);
    now += 15_000;
    const fresh = await scrape();
    expect(sample(fresh, 'extraction_review_queue_documents', { state: 'to_review', model: 'model-a' })).toBe(
      2,
    );
  });

  it('keeps the last counts when the database is away during a refresh, and counts the failure', async () => {
    const flaky = flakyDatabase(review.database);
    flaky.state.down = false;
    const own = new AppMetrics({
      review: { database: flaky.database, clock: review.clock },
      processMetrics: false,
    });
    const first = (await own.scrape()).body;
    const counted = sample(first, 'extraction_review_queue_documents', {
      state: 'to_review',
      model: 'model-a',
    });
    expect(counted).toBe(2);

    flaky.state.down = true;
    now += 15_000;
    const during = (await own.scrape()).body;
    expect(
      sample(during, 'extraction_review_queue_documents', { state: 'to_review', model: 'model-a' }),
    ).toBe(2);
    expect(sample(during, 'extraction_review_metrics_store_refresh_failures_total')).toBe(1);

    flaky.state.down = false;
    now += 15_000;
    const back = (await own.scrape()).body;
    expect(sample(back, 'extraction_review_metrics_store_refresh_failures_total')).toBe(1);
    expect(sample(back, 'extraction_review_queue_documents', { state: 'confirmed', model: 'model-b' })).toBe(
      1,
    );
  });
});

describe('the upstream and the database', () => {
  it('counts the upstream answers by status', async () => {
    expect((await alice.send('GET', '/api/v2/jobs/none')).status).toBe(404);
    const text = await scrape();
    expect(sample(text, 'extraction_review_upstream_requests_total', { version: 'v2', status: '404' })).toBe(
      1,
    );
  });

  it("counts on PostgreSQL too, with its pool's connections", async () => {
    const pg = await openTestStore('postgres');
    try {
      const own = new AppMetrics({
        review: { database: pg.database, clock: { now: () => T0 } },
        processMetrics: false,
      });
      await new QueueStore(pg.database, 60_000).addDocument(
        { apiVersion: 'v2', modelKey: 'model-p', fileName: 'p.pdf' },
        T0,
      );
      const text = (await own.scrape()).body;
      expect(
        sample(text, 'extraction_review_queue_documents', { state: 'processing', model: 'model-p' }),
      ).toBe(1);
      expect(sample(text, 'extraction_review_db_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(
        1,
      );
      expect(sample(text, 'extraction_review_db_pool_connections', { state: 'waiting' })).toBe(0);
    } finally {
      await pg.cleanup();
    }
  });
});
