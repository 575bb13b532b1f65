/**
 * Each integration sees only its own, on both engines, written as the attack of issue 18: the app
 * server with the real reference service upstream (behind a relay that logs what reaches it), two
 * integrations, A and B, and an operator. A enqueues, polls, predicts, sends feedback and a RAG
 * document; the operator uploads from the app. Then B walks every route of the gateway's table
 * (gateway-route-table.ts) with A's ids and the operator's: every one answers exactly as an unknown id
 * does (status, problem code, body shape, v1 envelope on /v1) and none reaches the upstream; B's RAG
 * list shows none of A's; B's feedback does not overwrite A's, nor enter A's timeline. A still reaches
 * all of its own. A route the gateway does not know is refused and never proxied.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../listen';
import type { ReferenceService } from '@extraction-review/test-kit/reference/reference-service';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  INVOICE_MODEL_ID,
  startTestService,
  TEST_API_KEY,
} from '@extraction-review/test-kit/reference/reference-harness';
import { hashPassword } from '../auth/passwords';
import { ENGINES, openTestStore, type TestStore } from '@extraction-review/test-kit/review/test-stores';
import type { JobFollower } from '../intake/job-follower';
import { openReview, type OpenedReview } from '../open-review';
import { documentTimeline } from '../store/audit-store';
import { GATEWAY_ROUTES } from './gateway-route-table';
import { listenWithReview, signInOverHttp } from '@extraction-review/test-kit/review/review-over-http';

const PASSWORD = 'correct horse battery staple';
const V1_PRODUCT = '/v1/products/mindee/invoices/v4';
/** Ids nobody has: what B's answers about A's ids must be indistinguishable from. */
const UNKNOWN = {
  uuid: '0f0f0f0f-1111-4222-8333-444455556666',
};

/** A relay in front of the reference service that logs every request reaching the upstream. */
async function startRelay(target: string): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    seen.push(`${request.method ?? ''} ${request.url ?? ''}`);
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Answer {
  status: number;
  contentType: string | null;
  allow: string | null;
  body: unknown;
}

describe.each(ENGINES)('integrations isolated from each other on %s', (engine) => {
  let store: TestStore;
  let reference: ReferenceService;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let review: OpenedReview;
  let follower: JobFollower;
  let server: RunningServer;
  let keyA = '';
  let keyB = '';
  let pdf: Uint8Array;
  /** A's ids, and the operator's. */
  const a = { job: '', inference: '', v1Document: '', v1Job: '', v1AsyncDocument: '', rag: '', docId: '' };
  const op = { job: '', inference: '', v1Document: '' };

  async function call(
    key: string,
    method: string,
    pathAndQuery: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const version = pathAndQuery.startsWith('/v1/') ? 'v1' : 'v2';
    const response = await fetch(`${server.url}${pathAndQuery}`, {
      method,
      redirect: 'manual',
      headers: {
        Authorization: version === 'v1' ? `Token ${key}` : key,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // kept as text
    }
    // Each answer's own request id (X-Request-Id, and request_id in a problem): never the same twice,
    // so compared apart from the rest.
    if (typeof parsed === 'object' && parsed !== null && 'request_id' in parsed) {
      const { request_id: requestId, ...rest } = parsed as Record<string, unknown>;
      expect(requestId).toBe(response.headers.get('x-request-id'));
      parsed = rest;
    }
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      allow: response.headers.get('allow'),
      body: parsed,
    };
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`never: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  function pdfForm(field: string, name: string, extra: Record<string, string> = {}): FormData {
    const form = new FormData();
    for (const [key, value] of Object.entries(extra)) form.set(key, value);
    form.set(field, new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), name);
    return form;
  }

  beforeAll(async () => {
    store = await openTestStore(engine);
    reference = await startTestService(path.join(store.settings.dataDir, 'reference'));
    relay = await startRelay(reference.url);
    review = await openReview(store.settings);
    keyA = (await review.integrations.create({ name: 'Accounts payable' }, Date.now())).key;
    keyB = (await review.integrations.create({ name: 'Mail robot' }, Date.now())).key;
    await review.operators.create(
      { name: 'Ada', role: 'admin', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    const upstream = { url: relay.url, apiKey: TEST_API_KEY };
    ({ server, follower } = await listenWithReview(review, {
      dataDir: store.settings.dataDir,
      upstream,
      follow: true,
    }));
    pdf = (
      await generatePdf([
        {
          lines: [
            { text: 'ACME Supplies Ltd', x: 72, y: 740, size: 16 },
            { text: 'Invoice number: ISO-0018', x: 72, y: 700 },
            { text: 'Date: 2026-03-14', x: 72, y: 680 },
            { text: 'Total: 1,234.50', x: 72, y: 660 },
          ],
        },
      ])
    ).bytes;

    // A: a v2 job polled to its result, as the official client does.
    const enqueued = await fetch(`${server.url}/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Authorization: keyA },
      body: pdfForm('file', 'a.pdf', { model_id: INVOICE_MODEL_ID }),
    });
    expect(enqueued.status).toBe(202);
    a.job = ((await enqueued.json()) as { job: { id: string } }).job.id;
    const resultUrl = await until('A’s job processed', async () => {
      const polled = await call(keyA, 'GET', `/v2/jobs/${a.job}?redirect=false`);
      expect(polled.status).toBe(200);
      const job = (polled.body as { job: { status: string; result_url: string | null } }).job;
      return job.status === 'Processed' ? (job.result_url ?? undefined) : undefined;
    });
    a.inference = new URL(resultUrl).pathname.split('/').at(-1) ?? '';
    const result = await call(keyA, 'GET', new URL(resultUrl).pathname);
    expect(result.status).toBe(200);
    const fields = (result.body as { inference: { result: { fields: Record<string, unknown> } } }).inference
      .result.fields;

    // A: a v1 synchronous prediction, and an asynchronous one polled through its redirect.
    const predicted = await fetch(`${server.url}${V1_PRODUCT}/predict`, {
      method: 'POST',
      headers: { Authorization: `Token ${keyA}` },
      body: pdfForm('document', 'a-v1.pdf'),
    });
    expect(predicted.status).toBe(201);
    a.v1Document = ((await predicted.json()) as { document: { id: string } }).document.id;
    const queued = await fetch(`${server.url}${V1_PRODUCT}/predict_async`, {
      method: 'POST',
      headers: { Authorization: `Token ${keyA}` },
      body: pdfForm('document', 'a-v1-async.pdf'),
    });
    expect(queued.status).toBe(202);
    a.v1Job = ((await queued.json()) as { job: { id: string } }).job.id;
    const location = await until('A’s v1 job completed', async () => {
      const response = await fetch(`${server.url}/v1/documents/queue/${a.v1Job}`, {
        headers: { Authorization: `Token ${keyA}` },
        redirect: 'manual',
      });
      await response.body?.cancel();
      return response.status === 302 ? (response.headers.get('location') ?? undefined) : undefined;
    });
    a.v1AsyncDocument = new URL(location).pathname.split('/').at(-1) ?? '';

    // A: feedback on its v1 document, and its v2 result stored for RAG.
    const feedback = await call(keyA, 'PUT', `/v1/documents/${a.v1Document}/feedback`, {
      feedback: { invoice_number: { value: 'A-CHECKED' } },
    });
    expect(feedback.status).toBe(200);
    const rag = await call(keyA, 'POST', `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`, {
      inference_id: a.inference,
      fields,
    });
    expect(rag.status).toBe(201);
    a.rag = (rag.body as { document: { id: string } }).document.id;

    // The operator: uploads from the app (no integration), v2 and v1.
    const { cookie, csrf } = await signInOverHttp(server.url, 'Ada', PASSWORD);
    const session = { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: server.url };
    const opEnqueued = await fetch(`${server.url}/api/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: session,
      body: pdfForm('file', 'operator.pdf', { model_id: INVOICE_MODEL_ID }),
    });
    expect(opEnqueued.status).toBe(202);
    op.job = ((await opEnqueued.json()) as { job: { id: string } }).job.id;
    const opPredicted = await fetch(`${server.url}/api/${V1_PRODUCT.slice(1)}/predict`, {
      method: 'POST',
      headers: session,
      body: pdfForm('document', 'operator-v1.pdf'),
    });
    expect(opPredicted.status).toBe(201);
    op.v1Document = ((await opPredicted.json()) as { document: { id: string } }).document.id;
    op.inference = await until('the operator’s inference kept', async () => {
      const row = await review.database.db
        .selectFrom('documents')
        .select('upstream_result_id')
        .where('upstream_job_id', '=', op.job)
        .executeTakeFirst();
      return row?.upstream_result_id ?? undefined;
    });
    a.docId = await until('A’s v1 document kept', async () => {
      const row = await review.database.db
        .selectFrom('documents')
        .select('id')
        .where('upstream_result_id', '=', a.v1Document)
        .executeTakeFirst();
      return row?.id;
    });
  });

  afterAll(async () => {
    await follower.stop();
    await server.close();
    await review.close();
    await relay.close();
    await reference.close();
    await store.cleanup();
  });

  /**
   * Every route of the gateway's table, as B would call it with an id: each answer about A's (or the
   * operator's) id must equal the answer about an id nobody has, the ids aside.
   */
  const probes: Record<string, (id: string) => [method: string, path: string, body?: unknown][]> = {
    'v2 job': (id) => [['GET', `/v2/jobs/${id}`]],
    'v2 result': (id) => [['GET', `/v2/products/extraction/results/${id}`]],
    'v2 inference': (id) => [['GET', `/v2/inferences/${id}`]],
    'v2 RAG add': (id) => [
      ['POST', `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`, { inference_id: id, fields: { x: {} } }],
    ],
    'v2 RAG document': (id) => [['GET', `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents/${id}`]],
    'v2 RAG delete': (id) => [['DELETE', `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents/${id}`]],
    'v1 queue': (id) => [['GET', `/v1/documents/queue/${id}`]],
    'v1 product queue': (id) => [['GET', `${V1_PRODUCT}/documents/queue/${id}`]],
    'v1 document': (id) => [['GET', `${V1_PRODUCT}/documents/${id}`]],
    'v1 feedback': (id) => [
      ['GET', `/v1/documents/${id}/feedback`],
      ['PUT', `/v1/documents/${id}/feedback`, { feedback: { invoice_number: { value: 'B-WAS-HERE' } } }],
      ['PATCH', `/v1/documents/${id}/feedback`, { feedback: { invoice_number: { value: 'B-WAS-HERE' } } }],
    ],
    'v2 validated result': (id) => [['GET', `/v2/review/results/${id}`]],
    'v1 validated result': (id) => [['GET', `/v1/review/documents/${id}`]],
  };
  /** Routes that take no one's id: making one's own, or the server's shared models. */
  const withoutIds = [
    'v2 enqueue',
    'v2 RAG list',
    'v2 models',
    'v2 model schema',
    'v1 predict',
    'v1 predict_async',
    'v1 products',
  ];

  it('walks every route of the gateway’s table', () => {
    const covered = [...Object.keys(probes), ...withoutIds];
    for (const route of GATEWAY_ROUTES) expect(covered).toContain(route.name);
  });

  /** A's (or the operator's) ids per route, as B would try them. */
  function othersIds(): Record<string, string[]> {
    return {
      'v2 job': [a.job, op.job],
      'v2 result': [a.inference, op.inference],
      'v2 inference': [a.inference, op.inference],
      'v2 RAG add': [a.inference, op.inference],
      'v2 RAG document': [a.rag],
      'v2 RAG delete': [a.rag],
      'v1 queue': [a.v1Job],
      'v1 product queue': [a.v1Job],
      'v1 document': [a.v1Document, a.v1AsyncDocument, op.v1Document],
      'v1 feedback': [a.v1Document, a.v1AsyncDocument, op.v1Document],
      'v2 validated result': [a.inference, op.inference],
      'v1 validated result': [a.v1Document, op.v1Document],
    };
  }

  const masked = (answer: Answer, id: string): Answer => ({
    ...answer,
    body: JSON.parse(JSON.stringify(answer.body).replaceAll(id, '{id}')) as unknown,
  });

  it('answers B about A’s ids and the operator’s exactly as about ids nobody has, upstream untouched', async () => {
    const seenBefore = relay.seen.length;
    let walked = 0;
    let expected = 0;
    for (const [name, ids] of Object.entries(othersIds())) {
      const probe = probes[name];
      if (probe === undefined) throw new Error(name);
      expected += ids.length * probe(UNKNOWN.uuid).length;
      for (const [index, [method, pathname, body]] of probe(UNKNOWN.uuid).entries()) {
        const unknown = masked(await call(keyB, method, pathname, body), UNKNOWN.uuid);
        expect(unknown.status, `${method} ${pathname}`).toBe(404);
        for (const id of ids) {
          expect(id, name).not.toBe('');
          const [otherMethod, otherPath, otherBody] = probe(id)[index] ?? [];
          const answer = masked(await call(keyB, otherMethod ?? '', otherPath ?? '', otherBody), id);
          expect(answer, `B: ${otherMethod ?? ''} ${otherPath ?? ''}`).toEqual(unknown);
          walked += 1;
        }
      }
    }
    expect(walked).toBe(expected);
    expect(walked).toBeGreaterThanOrEqual(28);
    // Every one answered by the gateway: nothing of B's attempts reached the upstream.
    expect(relay.seen.slice(seenBefore)).toEqual([]);
  });

  it('keeps the operators’ uploads from every integration, A included', async () => {
    const operatorIds: [string, string][] = [
      ['v2 job', op.job],
      ['v2 result', op.inference],
      ['v2 inference', op.inference],
      ['v2 RAG add', op.inference],
      ['v1 document', op.v1Document],
      ['v1 feedback', op.v1Document],
      ['v2 validated result', op.inference],
      ['v1 validated result', op.v1Document],
    ];
    for (const [name, id] of operatorIds) {
      const probe = probes[name];
      if (probe === undefined) throw new Error(name);
      const known = probe(id);
      for (const [index, [method, pathname, body]] of probe(UNKNOWN.uuid).entries()) {
        const unknown = masked(await call(keyA, method, pathname, body), UNKNOWN.uuid);
        const [otherMethod, otherPath, otherBody] = known[index] ?? [];
        const answer = masked(await call(keyA, otherMethod ?? '', otherPath ?? '', otherBody), id);
        expect(answer.status).toBe(404);
        expect(answer, `A: ${otherMethod ?? ''} ${otherPath ?? ''}`).toEqual(unknown);
      }
    }
  });

  it('answers on /v1 in the v1 envelope, on /v2 as a problem, with the upstream’s own codes', async () => {
    const v2 = await call(keyB, 'GET', `/v2/jobs/${a.job}`);
    expect(v2.contentType).toMatch(/^application\/problem\+json/);
    expect(v2.body).toEqual({
      status: 404,
      title: 'Job not found',
      detail: `No job has the id ${a.job}.`,
      code: '404-001',
      errors: [],
    });
    const v1 = await call(keyB, 'PUT', `/v1/documents/${a.v1Document}/feedback`, {
      feedback: { invoice_number: { value: 'B-WAS-HERE' } },
    });
    expect(v1.body).toMatchObject({
      api_request: { status: 'failure', status_code: 404, error: { code: '404-009' } },
    });
  });

  it('lets A reach all of its own', async () => {
    const own: [string, string, number][] = [
      ['GET', `/v2/jobs/${a.job}`, 302],
      ['GET', `/v2/jobs/${a.job}?redirect=false`, 200],
      ['GET', `/v2/products/extraction/results/${a.inference}`, 200],
      ['GET', `/v2/inferences/${a.inference}`, 200],
      ['GET', `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents/${a.rag}`, 200],
      ['GET', `/v1/documents/queue/${a.v1Job}`, 302],
      ['GET', `${V1_PRODUCT}/documents/queue/${a.v1Job}`, 302],
      ['GET', `${V1_PRODUCT}/documents/${a.v1Document}`, 200],
      ['GET', `${V1_PRODUCT}/documents/${a.v1AsyncDocument}`, 200],
      ['GET', `/v1/documents/${a.v1AsyncDocument}/feedback`, 200],
      ['GET', '/v2/search/models', 200],
      ['GET', `/v2/extensions/models/${INVOICE_MODEL_ID}`, 200],
      ['GET', '/v1/extensions/products', 200],
    ];
    for (const [method, pathname, status] of own) {
      expect((await call(keyA, method, pathname)).status, `A: ${method} ${pathname}`).toBe(status);
    }
    // Upper-case, as some clients write UUIDs: still A's.
    expect((await call(keyA, 'GET', `/v2/jobs/${a.job.toUpperCase()}?redirect=false`)).status).toBe(200);
    // The shared routes are B's too.
    expect((await call(keyB, 'GET', '/v2/search/models')).status).toBe(200);
  });

  it('keeps A’s feedback and A’s timeline from B', async () => {
    const feedback = await call(keyA, 'GET', `/v1/documents/${a.v1Document}/feedback`);
    expect(feedback.status).toBe(200);
    expect(feedback.body).toMatchObject({ feedback: { invoice_number: { value: 'A-CHECKED' } } });
    const timeline = await documentTimeline(review.database.db, a.docId);
    const sent = timeline.filter((event) => event.kind === 'feedback_sent');
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((event) => event.data?.integration === 'Accounts payable')).toBe(true);
  });

  it('lists only one’s own RAG documents; B cannot delete A’s; A can', async () => {
    const listPath = `/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`;
    const idsIn = (answer: Answer) =>
      (answer.body as { documents: { id: string }[] }).documents.map((document) => document.id);
    // The upstream has A's document (asked with the server's key, as the relay's log shows).
    const all = (await (
      await fetch(`${reference.url}${listPath}`, { headers: { Authorization: TEST_API_KEY } })
    ).json()) as { documents: { id: string }[] };
    expect(all.documents.map((document) => document.id)).toContain(a.rag);

    const listedForB = await call(keyB, 'GET', listPath);
    expect(listedForB.status).toBe(200);
    expect(idsIn(listedForB)).toEqual([]);
    const listedForA = await call(keyA, 'GET', listPath);
    expect(idsIn(listedForA)).toEqual([a.rag]);

    expect((await call(keyB, 'DELETE', `${listPath}/${a.rag}`)).status).toBe(404);
    expect(idsIn(await call(keyA, 'GET', listPath))).toEqual([a.rag]);
    expect((await call(keyA, 'DELETE', `${listPath}/${a.rag}`)).status).toBe(204);
    expect(idsIn(await call(keyA, 'GET', listPath))).toEqual([]);
  });

  it('refuses routes and paths it does not know, without proxying them', async () => {
    const seenBefore = relay.seen.length;
    const refused: [string, string, number, string][] = [
      ['GET', '/v2/jobs', 404, '404-003'],
      ['GET', '/v2/admin/keys', 404, '404-003'],
      ['DELETE', `/v2/jobs/${a.job}`, 405, '405-001'],
      ['POST', `/v2/products/extraction/results/${a.inference}`, 405, '405-001'],
      ['GET', `/v2/jobs/${a.job}/..%2F..%2Finferences%2F${op.inference}`, 404, '404-003'],
      ['GET', `/v2/jobs/%2e%2e%2Finferences%2F${op.inference}`, 404, '404-003'],
      ['GET', `/v2//jobs/${a.job}`, 404, '404-003'],
      ['POST', '/v2/review/results/x', 404, '404-003'],
      ['GET', '/v1/documents/queue', 404, '404-003'],
      ['DELETE', `/v1/documents/${a.v1Document}/feedback`, 405, '405-001'],
      ['GET', '/v1/anything/else', 404, '404-003'],
    ];
    for (const [method, pathname, status, code] of refused) {
      const answer = await call(keyA, method, pathname);
      expect(answer.status, `${method} ${pathname}`).toBe(status);
      const problem = pathname.startsWith('/v1/')
        ? (answer.body as { api_request: { error: { code: string } } }).api_request.error
        : (answer.body as { code: string });
      expect(problem.code, `${method} ${pathname}`).toBe(code);
    }
    expect(relay.seen.slice(seenBefore)).toEqual([]);
  });

  it('reads a RAG document’s body within 5 MB before checking it, whatever its framing', async () => {
    const seenBefore = relay.seen.length;
    const padding = 'x'.repeat(6 * 1024 * 1024);
    const chunks = [`{"inference_id":"${a.inference}","fields":{"a":{"value":"`, padding, '"}}}'];
    const answer = await fetch(`${server.url}/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`, {
      method: 'POST',
      headers: { Authorization: keyA, 'Content-Type': 'application/json' },
      // A stream: sent chunked, with no Content-Length to refuse it by.
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ code: '413-001' });
    expect(relay.seen.slice(seenBefore)).toEqual([]);
  });
});
