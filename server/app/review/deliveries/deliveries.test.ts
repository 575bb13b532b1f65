/**
 * The way back on both engines, over real HTTP: a confirmed document of an integration is POSTed to its
 * webhook URL, signed with its secret (checked by a receiver started here), with the corrected values and
 * the review's outcome; a receiver down for a while gets it once it is back, across an app-server
 * restart (the store and the worker closed, then opened again on the same database), exactly once;
 * v1 feedback and v2 RAG reach the embedded reference service; on PostgreSQL two workers racing never both send
 * one delivery.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { V1PredictResponse } from '@extraction-review/contract/v1/schemas';
import { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import type { ReferenceService } from '@extraction-review/test-kit/reference/reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  startTestService,
  TEST_API_KEY,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import { verifySignature } from '@extraction-review/server-kit/webhook-signature';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { openReviewDatabase, type ReviewDatabase } from '../db/open-database';
import { WebhookAddressGuard } from '@extraction-review/server-kit/webhook-address';
import { IntegrationStore } from '../store/integration-store';
import { OperatorStore } from '../store/operator-store';
import { QueueStore } from '../store/queue-store';
import { DeliveryStore } from './delivery-store';
import { DeliveryWorker, type DeliveryWorkerDeps } from './delivery-worker';
import { deliveriesOnConfirm } from './deliveries-on-confirm';
import { systemClock } from '@extraction-review/server-kit/clock';

const LEASE = 600_000;
const V2_RESULT = readFileSync(
  path.join(fixturesDir, 'v2', 'products', 'extraction', 'standard_field_types.json'),
  'utf8',
);
const FAST = { initialDelayMs: 20, maxDelayMs: 80, attemptTimeoutMs: 2_000 };

interface Call {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  method: string;
  path: string;
}

/** A webhook receiver on 127.0.0.1 (on `port`, or any): records each call and answers 204. */
async function listenReceiver(
  port = 0,
): Promise<{ url: string; port: number; calls: Call[]; close(): Promise<void> }> {
  const calls: Call[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      calls.push({
        headers: request.headers,
        body: Buffer.concat(chunks),
        method: request.method ?? '',
        path: request.url ?? '',
      });
      setTimeout(() => response.writeHead(204).end(), 15);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/hooks/review`,
    port: bound,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The one element of `rows`. */
function one<T>(rows: readonly T[]): T {
  const [first] = rows;
  if (rows.length !== 1 || first === undefined) throw new Error(`expected one, got ${rows.length}`);
  return first;
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The receivers of these tests listen on 127.0.0.1: allowed as ALLOW_PRIVATE_WEBHOOKS=127.0.0.1 does. */
const LOOPBACK_ALLOWED = new WebhookAddressGuard(['127.0.0.1']);

/** The review store as one app-server copy opens it: the queue with the outbox, and a worker. */
function openCopy(database: ReviewDatabase, worker: Partial<DeliveryWorkerDeps> = {}) {
  const queue = new QueueStore(database, LEASE, undefined, deliveriesOnConfirm({ rag: false }));
  const deliveries = new DeliveryWorker({
    database,
    clock: systemClock,
    upstream: {},
    retry: FAST,
    webhooks: LOOPBACK_ALLOWED,
    ...worker,
  });
  return { queue, deliveries, store: new DeliveryStore(database) };
}

describe.each(ENGINES)('the way back on %s', (engine) => {
  let store: TestStore;
  let operatorId: string;
  let integrations: IntegrationStore;

  beforeAll(async () => {
    store = await openTestStore(engine);
    operatorId = (
      await new OperatorStore(store.database).create(
        { name: 'Ada', role: 'admin', passwordHash: 'x' },
        Date.now(),
      )
    ).id;
    integrations = new IntegrationStore(store.database, { webhooks: LOOPBACK_ALLOWED });
  });
  afterAll(async () => {
    await store.cleanup();
  });

  /** A v2 document of the integration, corrected by Ada and confirmed. */
  async function confirmed(
    queue: QueueStore,
    integrationId: string | null,
    corrections = [{ path: 'field_simple_string', value: 'corrected' }],
  ) {
    const now = Date.now();
    const added = await queue.addDocument(
      {
        apiVersion: 'v2',
        modelKey: 'model-1',
        fileName: 'scan.pdf',
        upstreamJobId: `job-${now}-${Math.random()}`,
        integrationId,
      },
      now,
    );
    await queue.setResult(
      added.id,
      { json: V2_RESULT, resultId: null, fieldsTotal: 1, fieldsToReview: 1 },
      now,
    );
    const taken = await queue.take(added.id, operatorId, now);
    if (!taken.ok) throw new Error('not taken');
    const saved = await queue.saveCorrections(added.id, operatorId, taken.document.version, corrections, now);
    if (!saved.ok) throw new Error('not saved');
    const decided = await queue.decide(added.id, operatorId, saved.document.version, 'confirmed', null, now);
    if (!decided.ok) throw new Error('not confirmed');
    return decided.document;
  }

  it('POSTs the corrected result and the review, signed with the integration’s secret', async () => {
    const receiver = await listenReceiver();
    const { integration, webhookSecret } = await integrations.create(
      { name: `erp-${engine}`, webhookUrl: receiver.url },
      Date.now(),
    );
    const copy = openCopy(store.database);
    try {
      const document = await confirmed(copy.queue, integration.id);
      // Written with the confirmation, before anything is sent.
      const [pending] = (await copy.store.list({ documentId: document.id, limit: 10 })).rows;
      expect(pending).toMatchObject({ kind: 'webhook', state: 'pending', attempts: 0 });
      await copy.deliveries.drain();

      expect(receiver.calls).toHaveLength(1);
      const call = one(receiver.calls);
      expect(call.method).toBe('POST');
      expect(call.path).toBe('/hooks/review');
      expect(call.headers['content-type']).toBe('application/json');
      expect(verifySignature(webhookSecret ?? '', call.body, call.headers['x-signature'] as string)).toBe(
        true,
      );
      expect(verifySignature('another secret', call.body, call.headers['x-signature'] as string)).toBe(false);
      expect(call.headers['x-review-delivery']).toBe(String(pending?.id));
      expect(call.headers['x-review-event']).toBe('review.confirmed');

      const body = JSON.parse(call.body.toString('utf8')) as Record<string, unknown>;
      expect(body).toMatchObject({
        event: 'review.confirmed',
        review: {
          document_id: document.id,
          integration: { id: integration.id, name: `erp-${engine}` },
          outcome: 'confirmed',
          confirmed_by: 'Ada',
          automatic: false,
          confirmed_at: new Date(document.decided_at ?? 0).toISOString(),
          changed_fields: [
            {
              path: 'field_simple_string',
              change: 'corrected',
              before: 'field_simple_string-value',
              after: 'corrected',
            },
          ],
        },
      });
      const { inference } = ExtractionResponse.parse({ inference: body.inference });
      expect(inference.result.fields.field_simple_string).toMatchObject({ value: 'corrected' });

      const delivered = await copy.store.find(pending?.id ?? 0);
      expect(delivered).toMatchObject({
        state: 'delivered',
        attempts: 1,
        last_status: 204,
        lease_until: null,
      });
      expect(await copy.store.attemptsOf(pending?.id ?? 0)).toMatchObject([
        { outcome: 'delivered', status: 204 },
      ]);

      // A document of no integration (an app upload), or of one without a webhook URL: no webhook.
      const plain = await confirmed(copy.queue, null);
      const silent = await integrations.create({ name: `silent-${engine}` }, Date.now());
      const quiet = await confirmed(copy.queue, silent.integration.id);
      expect(
        (await copy.store.forDocument(plain.id)).length + (await copy.store.forDocument(quiet.id)).length,
      ).toBe(0);
    } finally {
      await copy.deliveries.stop();
      await receiver.close();
    }
  });

  it('says who confirmed: nobody for an automatic confirmation, and an overridden rule’s reason', async () => {
    const receiver = await listenReceiver();
    const { integration } = await integrations.create(
      { name: `auto-${engine}`, webhookUrl: receiver.url },
      Date.now(),
    );
    const copy = openCopy(store.database);
    try {
      const now = Date.now();
      // Confirmed at intake by the model's routing: no operator.
      const auto = await copy.queue.addDocument(
        {
          apiVersion: 'v2',
          modelKey: 'model-1',
          fileName: 'auto.pdf',
          upstreamJobId: `auto-${now}`,
          integrationId: integration.id,
        },
        now,
      );
      await copy.queue.setResult(
        auto.id,
        { json: V2_RESULT, resultId: null, fieldsTotal: 1, fieldsToReview: 0 },
        now,
        {
          review: false,
          reasons: ['every value is certain'],
        },
      );
      // Confirmed by Ada although a business rule fails, with her reason.
      const held = await copy.queue.addDocument(
        {
          apiVersion: 'v2',
          modelKey: 'model-1',
          fileName: 'held.pdf',
          upstreamJobId: `held-${now}`,
          integrationId: integration.id,
        },
        now,
      );
      await copy.queue.setResult(
        held.id,
        { json: V2_RESULT, resultId: null, fieldsTotal: 1, fieldsToReview: 1 },
        now,
      );
      const taken = await copy.queue.take(held.id, operatorId, now);
      if (!taken.ok) throw new Error('not taken');
      await copy.queue.decide(held.id, operatorId, taken.document.version, 'confirmed', null, now, {
        override: 'the supplier confirmed the total by phone',
        failing: [],
      });
      await copy.deliveries.drain();

      const bodies = receiver.calls.map(
        (call) => JSON.parse(call.body.toString('utf8')) as { review: Record<string, unknown> },
      );
      const byDocument = new Map(bodies.map((body) => [body.review.document_id, body.review]));
      expect(byDocument.get(auto.id)).toMatchObject({
        confirmed_by: null,
        automatic: true,
        changed_fields: [],
      });
      expect(byDocument.get(auto.id)).not.toHaveProperty('override_reason');
      expect(byDocument.get(held.id)).toMatchObject({
        confirmed_by: 'Ada',
        automatic: false,
        override_reason: 'the supplier confirmed the total by phone',
      });
    } finally {
      await copy.deliveries.stop();
      await receiver.close();
    }
  });

  it('retries while the receiver is down, and delivers once it is back, across a restart, exactly once', async () => {
    // A port nobody listens on, until the receiver starts there.
    const probe = await listenReceiver();
    const port = probe.port;
    await probe.close();
    const { integration, webhookSecret } = await integrations.create(
      { name: `down-${engine}`, webhookUrl: `http://127.0.0.1:${port}/hooks/review` },
      Date.now(),
    );

    // The first copy: confirms, tries, fails (connection refused), and stops.
    const first = await openReviewDatabase(store.settings);
    const copy = openCopy(first, { retry: { ...FAST, maxAttempts: 100 }, pollMs: 20 });
    const document = await confirmed(copy.queue, integration.id);
    copy.deliveries.start();
    const delivery = one(await copy.store.forDocument(document.id));
    try {
      await until('two failed attempts', async () =>
        (await copy.store.attemptsOf(delivery.id)).length >= 2 ? true : undefined,
      );
    } finally {
      await copy.deliveries.stop();
      await first.close();
    }
    const failedAttempts = await new DeliveryStore(store.database).attemptsOf(delivery.id);
    expect(failedAttempts.every((a) => a.outcome === 'network' && a.status === null)).toBe(true);
    expect(failedAttempts[0]?.error).toMatch(/^Attempt 1 of 100: the webhook URL could not be reached/);
    const meanwhile = await new DeliveryStore(store.database).find(delivery.id);
    expect(meanwhile).toMatchObject({ state: 'pending', attempts: failedAttempts.length });
    expect(meanwhile?.last_error).toMatch(/could not be reached/);

    // The receiver comes back; a new copy opens the same database and carries on.
    const receiver = await listenReceiver(port);
    const second = await openReviewDatabase(store.settings);
    const again = openCopy(second, { retry: { ...FAST, maxAttempts: 100 }, pollMs: 20 });
    again.deliveries.start();
    try {
      const delivered = await until('delivered', async () => {
        const row = await again.store.find(delivery.id);
        return row?.state === 'delivered' ? row : undefined;
      });
      // Give a duplicate every chance to show up.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.calls).toHaveLength(1);
      expect(
        verifySignature(
          webhookSecret ?? '',
          one(receiver.calls).body,
          one(receiver.calls).headers['x-signature'] as string,
        ),
      ).toBe(true);
      const attempts = await again.store.attemptsOf(delivery.id);
      expect(attempts.at(-1)).toMatchObject({ outcome: 'delivered', status: 204 });
      expect(attempts.filter((a) => a.outcome === 'delivered')).toHaveLength(1);
      expect(delivered.attempts).toBe(attempts.length);
    } finally {
      await again.deliveries.stop();
      await second.close();
      await receiver.close();
    }
  });

  it('fails after the last attempt, and an admin’s retry starts a new round', async () => {
    const probe = await listenReceiver();
    await probe.close();
    const { integration } = await integrations.create(
      { name: `gone-${engine}`, webhookUrl: `http://127.0.0.1:${probe.port}/x` },
      Date.now(),
    );
    const warnings: string[] = [];
    /** Each attempt's outcome as the metrics are told it (delivery_attempts_total). */
    const outcomes: string[] = [];
    const copy = openCopy(store.database, {
      retry: { ...FAST, maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
      log: (m) => warnings.push(m),
      onAttempt: (outcome) => outcomes.push(outcome),
    });
    const document = await confirmed(copy.queue, integration.id);
    const delivery = one(await copy.store.forDocument(document.id));
    await until('failed', async () => {
      await copy.deliveries.drain();
      const row = await copy.store.find(delivery.id);
      return row?.state === 'failed' ? row : undefined;
    });
    expect(await copy.store.find(delivery.id)).toMatchObject({ state: 'failed', attempts: 2 });
    expect(warnings).toEqual([expect.stringMatching(/webhook \d+ of document .* failed: Attempt 2 of 2/)]);
    expect(outcomes).toEqual(['network', 'network']);

    const receiver = await listenReceiver(probe.port);
    try {
      expect(await copy.store.retry(delivery.id, Date.now())).toMatchObject({
        ok: true,
        delivery: { state: 'pending', attempts: 0 },
      });
      await copy.deliveries.drain();
      expect(await copy.store.find(delivery.id)).toMatchObject({ state: 'delivered', attempts: 1 });
      expect(await copy.store.attemptsOf(delivery.id)).toHaveLength(3);
      expect(outcomes).toEqual(['network', 'network', 'delivered']);
      expect(receiver.calls).toHaveLength(1);
      expect(await copy.store.retry(delivery.id, Date.now())).toEqual({ ok: false, reason: 'delivered' });
      expect(await copy.store.retry(999_999, Date.now())).toEqual({ ok: false, reason: 'not_found' });

      // The URL is read again before each attempt: removed, the delivery fails without a call.
      await integrations.setWebhook(`gone-${engine}`, null);
      const other = await confirmed(copy.queue, integration.id);
      // No webhook URL at confirmation: no delivery at all.
      expect(await copy.store.forDocument(other.id)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('sends v1 feedback (PATCH of the changed fields) to the embedded reference service', async () => {
    const reference: ReferenceService = await startTestService(
      path.join(store.settings.dataDir, 'reference'),
    );
    try {
      const pdf = await generatePdf([{ lines: [{ text: 'Invoice number: INV-5', x: 72, y: 700 }] }]);
      const predicted = await fetch(`${reference.url}/v1/products/mindee/invoices/v4/predict`, {
        method: 'POST',
        headers: { Authorization: `Token ${TEST_API_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ document: Buffer.from(pdf.bytes).toString('base64') }),
      });
      const text = await predicted.text();
      const documentId = V1PredictResponse.parse(JSON.parse(text)).document.id;

      const now = Date.now();
      await store.database.db
        .insertInto('model_settings')
        .values({
          api_version: 'v1',
          model_key: 'mindee/invoices/v4',
          routing_json: '{}',
          rules_json: '[]',
          feedback_enabled: 1,
          version: 1,
          updated_at: now,
          updated_by: null,
        })
        .execute();
      const upstream = { url: reference.url, apiKey: TEST_API_KEY };
      const copy = openCopy(store.database, { upstream: { v1: upstream, v2: upstream } });
      const added = await copy.queue.addDocument(
        { apiVersion: 'v1', modelKey: 'mindee/invoices/v4', fileName: 'invoice.pdf' },
        now,
      );
      await copy.queue.setResult(
        added.id,
        { json: text, resultId: documentId, fieldsTotal: 1, fieldsToReview: 1 },
        now,
      );
      const taken = await copy.queue.take(added.id, operatorId, now);
      if (!taken.ok) throw new Error('not taken');
      const saved = await copy.queue.saveCorrections(
        added.id,
        operatorId,
        taken.document.version,
        [
          { path: 'total_amount', value: 99.5 },
          { path: 'invoice_number', value: 'INV-0005' },
        ],
        now,
      );
      if (!saved.ok) throw new Error('not saved');
      const decided = await copy.queue.decide(
        added.id,
        operatorId,
        saved.document.version,
        'confirmed',
        null,
        now,
      );
      expect(decided.ok).toBe(true);
      const delivery = one(await copy.store.forDocument(added.id));
      expect(delivery).toMatchObject({ kind: 'v1_feedback', state: 'pending', integration_id: null });
      expect(JSON.parse(delivery.payload_json)).toEqual({
        feedback: { invoice_number: { value: 'INV-0005' }, total_amount: { value: 99.5 } },
      });

      await copy.deliveries.drain();
      expect(await copy.store.find(delivery.id)).toMatchObject({ state: 'delivered', last_status: 200 });
      const stored = await fetch(`${reference.url}/v1/documents/${documentId}/feedback`, {
        headers: { Authorization: `Token ${TEST_API_KEY}` },
      });
      const { feedback } = (await stored.json()) as { feedback: Record<string, unknown> };
      expect(feedback).toMatchObject({
        total_amount: { value: 99.5 },
        invoice_number: { value: 'INV-0005' },
      });
    } finally {
      await reference.close();
    }
  });

  it('sends a confirmed v2 result to the embedded reference service’s RAG', async () => {
    const reference: ReferenceService = await startTestService(
      path.join(store.settings.dataDir, 'rag-reference'),
    );
    try {
      const pdf = await generatePdf([
        {
          lines: [
            { text: 'Invoice number: INV-77', x: 72, y: 700 },
            { text: 'Total: 12.50', x: 72, y: 680 },
          ],
        },
      ]);
      const enqueued = await enqueue(reference, {
        modelId: INVOICE_MODEL_ID,
        file: { bytes: pdf.bytes, name: 'invoice.pdf', type: 'application/pdf' },
      });
      const { job } = (await enqueued.json()) as { job: { id: string } };
      const done = await waitForJob(reference, job.id);
      const resultUrl = done.result_url ?? '';
      const text = await (await get(resultUrl)).text();
      const inferenceId = resultUrl.split('/').at(-1) ?? '';

      const upstream = { url: reference.url, apiKey: TEST_API_KEY };
      const database = store.database;
      const queue = new QueueStore(database, LEASE, undefined, deliveriesOnConfirm({ rag: true }));
      const worker = new DeliveryWorker({
        database,
        clock: systemClock,
        upstream: { v2: upstream },
        retry: FAST,
      });
      const now = Date.now();
      const added = await queue.addDocument(
        { apiVersion: 'v2', modelKey: INVOICE_MODEL_ID, fileName: 'invoice.pdf', upstreamJobId: job.id },
        now,
      );
      await queue.setResult(
        added.id,
        { json: text, resultId: inferenceId, fieldsTotal: 1, fieldsToReview: 1 },
        now,
      );
      const taken = await queue.take(added.id, operatorId, now);
      if (!taken.ok) throw new Error('not taken');
      const saved = await queue.saveCorrections(
        added.id,
        operatorId,
        taken.document.version,
        [{ path: 'invoice_number', value: 'INV-0077' }],
        now,
      );
      if (!saved.ok) throw new Error('not saved');
      expect(
        (await queue.decide(added.id, operatorId, saved.document.version, 'confirmed', null, now)).ok,
      ).toBe(true);
      const delivery = one(await new DeliveryStore(database).forDocument(added.id));
      expect(delivery).toMatchObject({ kind: 'v2_rag', state: 'pending' });
      await worker.drain();
      expect(await new DeliveryStore(database).find(delivery.id)).toMatchObject({
        state: 'delivered',
        last_status: 201,
      });

      const listed = await get(`${reference.url}/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`);
      const { documents } = (await listed.json()) as {
        documents: { inference_id: string; fields: Record<string, { value?: unknown }> }[];
      };
      expect(documents).toHaveLength(1);
      expect(documents[0]).toMatchObject({
        inference_id: inferenceId,
        fields: { invoice_number: { value: 'INV-0077' } },
      });
    } finally {
      await reference.close();
    }
  });

  // Copies race on PostgreSQL only: the embedded SQLite store is one copy's (docs/operations.md).
  if (engine === 'postgres')
    it('never sends one delivery twice when two copies race', async () => {
      const receiver = await listenReceiver();
      const { integration } = await integrations.create(
        { name: 'race', webhookUrl: receiver.url },
        Date.now(),
      );
      const copyA = await openReviewDatabase(store.settings);
      const copyB = await openReviewDatabase(store.settings);
      const a = openCopy(copyA, { lanes: 4 });
      const b = openCopy(copyB, { lanes: 4 });
      try {
        const documents = [];
        for (let i = 0; i < 40; i++) documents.push(await confirmed(a.queue, integration.id));
        const ids = new Set<number>();
        for (const document of documents)
          for (const d of await a.store.forDocument(document.id)) ids.add(d.id);
        expect(ids.size).toBe(40);
        await Promise.all([
          a.deliveries.drain(),
          b.deliveries.drain(),
          a.deliveries.drain(),
          b.deliveries.drain(),
        ]);
        const sent = receiver.calls.map((call) => Number(call.headers['x-review-delivery']));
        expect(sent.filter((id) => ids.has(id)).sort()).toEqual([...ids].sort());
        expect(new Set(sent).size).toBe(sent.length);
        const attempts = await copyA.db
          .selectFrom('delivery_attempts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('delivery_id', 'in', [...ids])
          .executeTakeFirstOrThrow();
        expect(Number(attempts.n)).toBe(40);
      } finally {
        await copyA.close();
        await copyB.close();
        await receiver.close();
      }
    });
});
