/**
 * The app server as a drop-in API host for pipelines, on both engines: the official `mindee` client
 * (5.2.0), unchanged but for its host and key, against the app server with an integration key, the
 * real reference service upstream, behind a TLS-terminating proxy the app server trusts (so that the
 * URLs it writes are https, which the client requires): v2 enqueue-and-get-result, v1 synchronous
 * predict with feedback, v1 asynchronous predict with polling through the redirect. Every document
 * that passes is kept in the review store, tagged with its integration; a wrong, revoked or upstream
 * key is refused with 401.
 */
import path from 'node:path';
import { BufferInput, Client, product, v1 } from 'mindee';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../create-app';
import { listen, type RunningServer } from '../../listen';
import type { ReferenceService } from '@extraction-review/test-kit/reference/reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  startTlsProxy,
  testCertificates,
  type TestHttpsServer,
} from '@extraction-review/test-kit/reference/test-tls';
import type { DocumentRow } from '../db/schema';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import { mountReview } from '../http/mount-review';
import { JobFollower } from '../intake/job-follower';
import { openReview, type OpenedReview } from '../open-review';
import { documentTimeline } from '../store/audit-store';

const polling = { initialDelaySec: 1, delaySec: 1, maxRetries: 60 };

describe.each(ENGINES)('the gateway on %s', (engine) => {
  let store: TestStore;
  let reference: ReferenceService;
  let review: OpenedReview;
  let follower: JobFollower;
  let server: RunningServer;
  let proxy: TestHttpsServer;
  let dispatcher: Agent;
  let pdf: Buffer;
  let key: string;
  let integrationId: string;
  const hosts = { v2: process.env.MINDEE_V2_API_HOST, v1: process.env.MINDEE_API_HOST };

  beforeAll(async () => {
    store = await openTestStore(engine);
    reference = await startTestService(path.join(store.settings.dataDir, 'reference'));
    review = await openReview(store.settings);
    const created = await review.integrations.create({ name: 'Accounts payable' }, Date.now());
    key = created.key;
    integrationId = created.integration.id;
    const upstream = { url: reference.url, apiKey: TEST_API_KEY };
    follower = new JobFollower({ review, upstream: { v2: upstream, v1: upstream } });
    follower.start();
    server = await listen(
      createApp({
        upstream: { v2: upstream, v1: upstream },
        staticDir: null,
        hosts: { trustProxy: ['loopback'] },
        review: mountReview(review, {
          hosts: { trustProxy: ['loopback'] },
          intake: {
            tempDir: path.join(store.settings.dataDir, 'incoming'),
            onDocument: (id) => follower.follow(id),
          },
        }),
      }),
      { host: '127.0.0.1', port: 0 },
    );
    proxy = await startTlsProxy(server.url);
    dispatcher = new Agent({ connect: { ca: (await testCertificates()).ca } });
    // The only change a pipeline makes: its host (read when a Client is made), and its key.
    process.env.MINDEE_V2_API_HOST = `localhost:${proxy.port}`;
    process.env.MINDEE_API_HOST = `localhost:${proxy.port}`;
    pdf = Buffer.from(
      (
        await generatePdf([
          {
            lines: [
              { text: 'ACME Supplies Ltd', x: 72, y: 740, size: 16 },
              { text: 'Invoice number: GW-0042', x: 72, y: 700 },
              { text: 'Date: 2026-03-14', x: 72, y: 680 },
              { text: 'Total: 1,234.50', x: 72, y: 660 },
            ],
          },
        ])
      ).bytes,
    );
  });
  afterAll(async () => {
    for (const [name, value] of [
      ['MINDEE_V2_API_HOST', hosts.v2],
      ['MINDEE_API_HOST', hosts.v1],
    ] as const) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
    await dispatcher.close();
    await proxy.close();
    await follower.stop();
    await server.close();
    await review.close();
    await reference.close();
    await store.cleanup();
  });

  /** The store's document for an upstream job (or result), once the intake has kept it. */
  async function keptDocument(
    upstreamId: string,
    column: 'upstream_job_id' | 'upstream_result_id' = 'upstream_job_id',
  ): Promise<DocumentRow> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const row = await review.database.db
        .selectFrom('documents')
        .selectAll()
        .where(column, '=', upstreamId)
        .executeTakeFirst();
      if (row !== undefined) return row;
      if (Date.now() > deadline) throw new Error(`${upstreamId} was never kept`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function settled(id: string): Promise<DocumentRow> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const row = await review.queue.find(id);
      if (row !== undefined && row.state !== 'processing') return row;
      if (Date.now() > deadline) throw new Error(`still processing: ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('v2: the official client enqueues and gets the result; the document is kept, tagged', async () => {
    const client = new Client({ apiKey: key, dispatcher });
    const response = await client.enqueueAndGetResult(
      product.Extraction,
      new BufferInput({ buffer: pdf, filename: 'facture-été.pdf' }),
      { modelId: INVOICE_MODEL_ID, rawText: true },
      polling,
    );
    expect(response.inference.file.name).toBe('facture-été.pdf');
    expect(response.inference.model.id).toBe(INVOICE_MODEL_ID);
    const document = await keptDocument(response.inference.job.id);
    expect(document).toMatchObject({
      api_version: 'v2',
      model_key: INVOICE_MODEL_ID,
      file_name: 'facture-été.pdf',
      integration_id: integrationId,
      uploaded_by: null,
      file_bytes: pdf.byteLength,
    });
    const ready = await settled(document.id);
    expect(ready.upstream_result_id).toBe(response.inference.id);
    expect(ready.state).toBe('to_review');
  });

  it('v2: the URLs it writes are https, under the host the client called', async () => {
    const form = new FormData();
    form.set('model_id', INVOICE_MODEL_ID);
    form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'urls.pdf');
    const answer = await fetch(`https://localhost:${proxy.port}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: key },
      body: form,
      dispatcher,
    } as RequestInit);
    expect(answer.status).toBe(202);
    const { job } = (await answer.json()) as { job: { id: string; polling_url: string } };
    expect(job.polling_url).toBe(`https://localhost:${proxy.port}/v2/jobs/${job.id}`);
    // Straight to the app server (no proxy): its own http address.
    // A job done already answers 302 with the job as body: not followed, so the body is read either way.
    const direct = await fetch(`${server.url}/v2/jobs/${job.id}`, {
      headers: { Authorization: key },
      redirect: 'manual',
    });
    expect([200, 302]).toContain(direct.status);
    if (direct.status === 302)
      expect(direct.headers.get('location')).toMatch(new RegExp(`^${server.url}/v2/`));
    expect(((await direct.json()) as { job: { polling_url: string } }).job.polling_url).toBe(
      `${server.url}/v2/jobs/${job.id}`,
    );
  });

  it('v1: a synchronous predict and its feedback go through; the document enters the queue at once', async () => {
    const client = new v1.Client({ apiKey: key, dispatcher });
    const { document } = await client.parse(
      v1.product.InvoiceV4,
      new BufferInput({ buffer: pdf, filename: 'v1-gateway.pdf' }),
    );
    expect(document.inference.prediction.invoiceNumber.value).toBe('GW-0042');
    const kept = await keptDocument(document.id, 'upstream_result_id');
    expect(kept).toMatchObject({
      api_version: 'v1',
      model_key: 'mindee/invoices/v4',
      state: 'to_review',
      integration_id: integrationId,
      file_name: 'v1-gateway.pdf',
    });
    const feedback = await client.sendFeedback(v1.product.InvoiceV4, document.id, {
      feedback: { invoice_number: { value: 'GW-0043' } },
    });
    expect(feedback.feedback).toMatchObject({ invoice_number: { value: 'GW-0043' } });
    const deadline = Date.now() + 10_000;
    let kinds: string[] = [];
    while (!kinds.includes('feedback_sent') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      kinds = (await documentTimeline(review.database.db, kept.id)).map((event) => event.kind);
    }
    const sent = (await documentTimeline(review.database.db, kept.id)).find(
      (e) => e.kind === 'feedback_sent',
    );
    expect(sent?.data).toMatchObject({ integration: 'Accounts payable', fields: ['invoice_number'] });
  });

  it('v1: an asynchronous predict is polled through the redirect, rewritten to the gateway', async () => {
    const client = new v1.Client({ apiKey: key, dispatcher });
    const response = await client.enqueueAndParse(
      v1.product.InvoiceV4,
      new BufferInput({ buffer: pdf, filename: 'v1-async.pdf' }),
      polling,
    );
    expect(response.job.status).toBe('completed');
    expect(response.document?.inference.prediction.totalAmount.value).toBe(1234.5);
    const document = await keptDocument(response.job.id);
    expect(document.integration_id).toBe(integrationId);
    expect((await settled(document.id)).state).toBe('to_review');
  });

  it('gives the validated result on demand: 404 until confirmed, then the corrected values', async () => {
    const client = new Client({ apiKey: key, dispatcher });
    const response = await client.enqueueAndGetResult(
      product.Extraction,
      new BufferInput({ buffer: pdf, filename: 'on-demand.pdf' }),
      { modelId: INVOICE_MODEL_ID },
      polling,
    );
    const inferenceId = response.inference.id;
    const document = await settled((await keptDocument(response.inference.job.id)).id);
    const ask = (apiKey: string, path = `/v2/review/results/${inferenceId}`) =>
      fetch(`${server.url}${path}`, { headers: { Authorization: apiKey } });

    const waiting = await ask(key);
    expect(waiting.status).toBe(404);
    expect(await waiting.json()).toMatchObject({ code: '404-013', state: 'to_review' });

    const operator = await review.operators.create(
      { name: 'Olga', role: 'operator', passwordHash: null },
      Date.now(),
    );
    const taken = await review.queue.take(document.id, operator.id, Date.now());
    if (!taken.ok) throw new Error('not taken');
    // A simple field of the result as stored (the client's objects carry more than the API's keys).
    const stored = JSON.parse(document.result_json ?? '{}') as {
      inference: { result: { fields: Record<string, object> } };
    };
    const field =
      Object.entries(stored.inference.result.fields).find(([, value]) => 'value' in value)?.[0] ?? 'none';
    const saved = await review.queue.saveCorrections(
      document.id,
      operator.id,
      taken.document.version,
      [{ path: field, value: 'GW-0042-CORRECTED' }],
      Date.now(),
    );
    if (!saved.ok) throw new Error('not saved');
    const decided = await review.queue.decide(
      document.id,
      operator.id,
      saved.document.version,
      'confirmed',
      null,
      Date.now(),
    );
    expect(decided.ok).toBe(true);

    const validated = await ask(key);
    expect(validated.status).toBe(200);
    const body = (await validated.json()) as {
      review: Record<string, unknown>;
      inference: { id: string; result: { fields: Record<string, { value?: unknown }> } };
    };
    expect(body.review).toMatchObject({
      document_id: document.id,
      outcome: 'confirmed',
      confirmed_by: 'Olga',
      automatic: false,
      integration: { id: integrationId, name: 'Accounts payable' },
      changed_fields: [
        expect.objectContaining({ path: field, change: 'corrected', after: 'GW-0042-CORRECTED' }),
      ],
    });
    expect(body.inference.id).toBe(inferenceId);
    expect(body.inference.result.fields[field]?.value).toBe('GW-0042-CORRECTED');

    // Another integration's key does not even learn that the document exists.
    const other = await review.integrations.create({ name: 'Someone else' }, Date.now());
    const hidden = await ask(other.key);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).not.toHaveProperty('state');
    const v1Unknown = await ask(key, '/v1/review/documents/no-such-document');
    expect(v1Unknown.status).toBe(404);
    expect(await v1Unknown.json()).toMatchObject({
      api_request: { status: 'failure', status_code: 404, error: { code: '404-013' } },
    });
  });

  it('refuses a wrong key, the upstream key, no key and a revoked key with 401', async () => {
    const input = () => new BufferInput({ buffer: pdf, filename: 'refused.pdf' });
    for (const apiKey of ['erk_wrong', TEST_API_KEY]) {
      await expect(
        new v1.Client({ apiKey, dispatcher }).parse(v1.product.InvoiceV4, input()),
      ).rejects.toMatchObject({
        name: 'MindeeHttp401Error',
        code: 401,
      });
      await expect(
        new Client({ apiKey, dispatcher }).enqueue(product.Extraction, input(), {
          modelId: INVOICE_MODEL_ID,
        }),
      ).rejects.toMatchObject({ status: 401 });
    }
    const none = await fetch(`${server.url}/v2/jobs/x`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ status: 401, code: '401-013' });
    const noneV1 = await fetch(`${server.url}/v1/products/mindee/invoices/v4/documents/queue/x`);
    expect(noneV1.status).toBe(401);
    expect(await noneV1.json()).toMatchObject({
      api_request: { status: 'failure', status_code: 401, error: { code: '401-013' } },
    });

    const shortLived = await review.integrations.create({ name: 'Short lived' }, Date.now());
    const client = new Client({ apiKey: shortLived.key, dispatcher });
    const before = await fetch(`${server.url}/v2/jobs/nothing`, {
      headers: { Authorization: shortLived.key },
    });
    expect(before.status).not.toBe(401);
    await review.integrations.revoke('Short lived', Date.now());
    await expect(client.getJob('nothing')).rejects.toMatchObject({ status: 401 });
    const count = await review.database.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('file_name', '=', 'refused.pdf')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('never sends a session cookie or an operator’s route through the gateway', async () => {
    const answer = await fetch(`${server.url}/v2/../api/review/counts`, { headers: { Authorization: key } });
    // URL normalisation makes that /api/review/counts, which needs a session: never the integration.
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ code: '401-011' });
  });
});
