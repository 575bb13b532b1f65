/**
 * The way back's admin API over real HTTP, on both engines: the app server (openReview, with its
 * outbox) confirms a document of an integration whose receiver is down, the delivery fails and is
 * listed with its attempts and last error; an admin retries it (CSRF token required) once the receiver
 * is up, and it is delivered; a delivered one cannot be retried (409-004), an unknown one is 404-014;
 * operators see a document's deliveries, not the admin list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeliveryDetailResponse,
  DeliveryList,
  DeliveryPage,
  DeliveryResponse,
} from '@extraction-review/contract/review/deliveries';
import { SessionResponse } from '@extraction-review/contract/review/schemas';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReview, type OpenedReview } from '../open-review';
import { DeliveryWorker } from '../deliveries/delivery-worker';
import { mountReview } from './mount-review';
import { systemClock } from '@extraction-review/server-kit/clock';

const PASSWORD = 'correct horse battery staple';
const V2_RESULT = readFileSync(
  path.join(fixturesDir, 'v2', 'products', 'extraction', 'standard_field_types.json'),
  'utf8',
);

async function signIn(base: string, name: string) {
  const response = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ name, password: PASSWORD }),
  });
  expect(response.status).toBe(200);
  const { csrfToken } = SessionResponse.parse(await response.json());
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return (method: string, url: string, csrf = true) =>
    fetch(`${base}${url}`, {
      method,
      headers: { Cookie: cookie, Origin: base, ...(csrf ? { 'X-CSRF-Token': csrfToken } : {}) },
    });
}

async function problem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(ErrorResponse.parse(await response.json())).toMatchObject({ status, code });
}

describe.each(ENGINES)('the deliveries API on %s', (engine) => {
  let store: TestStore;
  let review: OpenedReview;
  let server: RunningServer;
  let worker: DeliveryWorker;
  let receiver: http.Server;
  let port: number;
  const received: string[] = [];

  beforeAll(async () => {
    store = await openTestStore(engine);
    // The receiver listens on 127.0.0.1, as ALLOW_PRIVATE_WEBHOOKS=127.0.0.1 allows.
    review = await openReview({ ...store.settings, allowPrivateWebhooks: ['127.0.0.1'] });
    const hash = await hashPassword(PASSWORD);
    await review.operators.create({ name: 'Ada', role: 'admin', passwordHash: hash }, Date.now());
    await review.operators.create({ name: 'Bob', role: 'operator', passwordHash: hash }, Date.now());
    server = await listen(createApp({ upstream: {}, staticDir: null, review: mountReview(review) }), {
      host: '127.0.0.1',
      port: 0,
    });
    receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200).end('ok');
      });
    });
    // Learn a free port, and leave it closed: the receiver is down at first.
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    worker = new DeliveryWorker({
      database: review.database,
      clock: systemClock,
      upstream: {},
      webhooks: review.webhooks,
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await worker.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await server.close();
    await review.close();
    await store.cleanup();
  });

  it('lists a failed delivery with its attempts, retries it for an admin, and refuses the rest', async () => {
    const { integration } = await review.integrations.create(
      { name: 'ERP', webhookUrl: `http://127.0.0.1:${port}/hook` },
      Date.now(),
    );
    const ada = await review.operators.findByName('Ada');
    const now = Date.now();
    const added = await review.queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'm',
        fileName: 'march.pdf',
        upstreamJobId: 'j1',
        integrationId: integration.id,
      },
      now,
    );
    await review.queue.setResult(
      added.id,
      { json: V2_RESULT, resultId: null, fieldsTotal: 1, fieldsToReview: 0 },
      now,
    );
    const taken = await review.queue.take(added.id, ada?.id ?? '', now);
    if (!taken.ok) throw new Error('not taken');
    const decided = await review.queue.decide(
      added.id,
      ada?.id ?? '',
      taken.document.version,
      'confirmed',
      null,
      now,
    );
    expect(decided.ok).toBe(true);
    for (let i = 0; i < 5; i++) await worker.drain();

    const asAdmin = await signIn(server.url, 'Ada');
    const page = DeliveryPage.parse(
      await (await asAdmin('GET', '/api/review/deliveries?state=failed')).json(),
    );
    expect(page.counts).toEqual({ pending: 0, delivered: 0, failed: 1 });
    expect(page.deliveries).toHaveLength(1);
    const [listed] = page.deliveries;
    expect(listed).toMatchObject({
      kind: 'webhook',
      state: 'failed',
      documentId: added.id,
      fileName: 'march.pdf',
      integration: { id: integration.id, name: 'ERP' },
      attempts: 2,
      nextAttemptAt: null,
      lastStatus: null,
    });
    expect(listed?.lastError).toMatch(/^Attempt 2 of 2: the webhook URL could not be reached/);
    const id = listed?.id ?? 0;

    const detail = DeliveryDetailResponse.parse(
      await (await asAdmin('GET', `/api/review/deliveries/${id}`)).json(),
    );
    expect(detail.delivery.attemptLog.map((a) => a.outcome)).toEqual(['network', 'network']);
    expect(detail.delivery.payload).toMatchObject({
      event: 'review.confirmed',
      review: { document_id: added.id },
    });

    // Filters: by document, integration, kind; paging.
    const byDocument = DeliveryPage.parse(
      await (
        await asAdmin(
          'GET',
          `/api/review/deliveries?document=${added.id}&kind=webhook&integration=${integration.id}&limit=1`,
        )
      ).json(),
    );
    expect(byDocument.deliveries.map((d) => d.id)).toEqual([id]);
    expect(byDocument.nextCursor).toBeNull();
    await problem(await asAdmin('GET', '/api/review/deliveries?state=lost'), 422, '422-008');
    await problem(await asAdmin('GET', '/api/review/deliveries?cursor=abc'), 422, '422-008');

    // The receiver is back; a retry without the CSRF token is refused, with it the delivery is due now.
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    await problem(await asAdmin('POST', `/api/review/deliveries/${id}/retry`, false), 403, '403-004');
    const retried = await asAdmin('POST', `/api/review/deliveries/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(DeliveryResponse.parse(await retried.json()).delivery).toMatchObject({
      state: 'pending',
      attempts: 0,
    });
    await worker.drain();
    expect(received).toHaveLength(1);
    const after = DeliveryDetailResponse.parse(
      await (await asAdmin('GET', `/api/review/deliveries/${id}`)).json(),
    );
    expect(after.delivery).toMatchObject({
      state: 'delivered',
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(after.delivery.attemptLog.map((a) => a.outcome)).toEqual(['network', 'network', 'delivered']);

    await problem(await asAdmin('POST', `/api/review/deliveries/${id}/retry`), 409, '409-004');
    await problem(await asAdmin('POST', '/api/review/deliveries/987654/retry'), 404, '404-014');
    await problem(await asAdmin('GET', '/api/review/deliveries/nope'), 404, '404-014');

    // An operator sees the document's deliveries (its history), not the admin list nor a retry.
    const asBob = await signIn(server.url, 'Bob');
    await problem(await asBob('GET', '/api/review/deliveries'), 403, '403-005');
    await problem(await asBob('POST', `/api/review/deliveries/${id}/retry`), 403, '403-005');
    const mine = DeliveryList.parse(
      await (await asBob('GET', `/api/review/documents/${added.id}/deliveries`)).json(),
    );
    expect(mine.deliveries).toMatchObject([{ id, state: 'delivered' }]);
    await problem(
      await asBob('GET', '/api/review/documents/00000000-0000-4000-8000-000000000000/deliveries'),
      404,
      '404-010',
    );
    await problem(await fetch(`${server.url}/api/review/deliveries`), 401, '401-011');
  });
});
