/**
 * Documents uploaded through the app server enter the review store, on both engines, with the real
 * reference service upstream: a v2 multipart enqueue and a v1 asynchronous predict are kept (the file,
 * byte for byte, under a document id; the name, the model, who uploaded them) as `processing`, their
 * jobs followed until the result is in and they are `to_review` with the share of fields to review; a
 * v1 synchronous predict enters the queue at once; a refused upload leaves nothing behind.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentResponse, JobDocumentResponse, QueuePage } from '@extraction-review/contract/review/schemas';
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
import { openReview, type OpenedReview } from '../open-review';
import type { JobFollower } from './job-follower';
import { listenWithReview, signInOverHttp } from '@extraction-review/test-kit/review/review-over-http';

const PASSWORD = 'correct horse battery staple';

describe.each(ENGINES)('the intake on %s', (engine) => {
  let store: TestStore;
  let reference: ReferenceService;
  let review: OpenedReview;
  let follower: JobFollower;
  let server: RunningServer;
  let cookie = '';
  let csrf = '';
  let pdf: Uint8Array;

  beforeAll(async () => {
    store = await openTestStore(engine);
    reference = await startTestService(path.join(store.settings.dataDir, 'reference'));
    review = await openReview(store.settings);
    await review.operators.create(
      { name: 'Ada', role: 'admin', passwordHash: await hashPassword(PASSWORD) },
      Date.now(),
    );
    const upstream = { url: reference.url, apiKey: TEST_API_KEY };
    ({ server, follower } = await listenWithReview(review, { dataDir: store.settings.dataDir, upstream }));
    ({ cookie, csrf } = await signInOverHttp(server.url, 'Ada', PASSWORD));
    pdf = (
      await generatePdf([
        {
          lines: [
            { text: 'Invoice number: INT-0042', x: 72, y: 700 },
            { text: 'Total: 1,234.50', x: 72, y: 680 },
          ],
        },
      ])
    ).bytes;
  });
  afterAll(async () => {
    await follower.stop();
    await server.close();
    await review.close();
    await reference.close();
    await store.cleanup();
  });

  /** Follows jobs until the document leaves `processing`. */
  async function settle(id: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const row = await review.queue.find(id);
      if (row !== undefined && row.state !== 'processing') return row;
      if (Date.now() > deadline) throw new Error(`still processing: ${JSON.stringify(row)}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await follower.tick();
    }
  }

  async function documentsNamed(name: string) {
    const page = QueuePage.parse(
      await (
        await fetch(`${server.url}/api/review/documents?q=${encodeURIComponent(name)}`, {
          headers: { Cookie: cookie },
        })
      ).json(),
    );
    return page.documents;
  }

  it('keeps a v2 upload, follows its job and queues it with its result', async () => {
    const form = new FormData();
    form.set('model_id', INVOICE_MODEL_ID);
    form.set('alias', 'march run');
    form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'facture-été.pdf');
    const enqueued = await fetch(`${server.url}/api/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: server.url },
      body: form,
    });
    expect(enqueued.status).toBe(202);
    const { job } = (await enqueued.json()) as { job: { id: string } };

    // Kept once the upstream's answer is in (the recorder works after the answer).
    let kept: Awaited<ReturnType<typeof documentsNamed>> = [];
    for (let i = 0; i < 50 && kept.length === 0; i++) {
      kept = await documentsNamed('facture-été');
      if (kept.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(kept).toHaveLength(1);
    const [first] = kept;
    expect(first).toMatchObject({
      apiVersion: 'v2',
      model: INVOICE_MODEL_ID,
      fileName: 'facture-été.pdf',
      alias: 'march run',
      upstreamJobId: job.id,
    });
    const id = first?.id ?? '';
    const row = await settle(id);
    expect(row).toMatchObject({ state: 'to_review', uploaded_by: expect.any(String) });
    expect(row.fields_total).toBeGreaterThan(0);

    const opened = DocumentResponse.parse(
      await (await fetch(`${server.url}/api/review/documents/${id}`, { headers: { Cookie: cookie } })).json(),
    ).document;
    // (The reference service's own echo of a UTF-8 name is issue 13's; the queue keeps the browser's.)
    expect(opened.result).toMatchObject({
      inference: { job: { id: job.id }, model: { id: INVOICE_MODEL_ID } },
    });
    expect(opened.fileName).toBe('facture-été.pdf');
    const file = await fetch(`${server.url}/api/review/documents/${id}/file`, {
      headers: { Cookie: cookie },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
    // Nobody signed in: no file.
    expect((await fetch(`${server.url}/api/review/documents/${id}/file`)).status).toBe(401);

    // The operator sends the corrected values to RAG from the review: recorded in the timeline.
    const rag = await fetch(`${server.url}/api/v2/extensions/rag/${INVOICE_MODEL_ID}/documents`, {
      method: 'POST',
      headers: {
        Cookie: cookie,
        'X-CSRF-Token': csrf,
        Origin: server.url,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        inference_id: opened.upstreamResultId,
        fields: { invoice_number: { value: 'INT-0042-FIXED', locations: [], confidence: null } },
      }),
    });
    expect(rag.status).toBe(201);
    await expect
      .poll(async () => {
        const timeline = (await (
          await fetch(`${server.url}/api/review/documents/${id}/timeline`, { headers: { Cookie: cookie } })
        ).json()) as { events: { kind: string; actor: { name: string | null } | null; data: unknown }[] };
        return timeline.events.find((e) => e.kind === 'sent_to_rag');
      })
      .toMatchObject({
        actor: { name: 'Ada' },
        data: { method: 'POST', fields: ['invoice_number'], status: 201 },
      });
  });

  it('keeps v1 predictions: an asynchronous one once its job completes, a synchronous one at once', async () => {
    const send = async (mode: 'predict' | 'predict_async', name: string) => {
      const form = new FormData();
      form.set('document', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), name);
      const response = await fetch(`${server.url}/api/v1/products/mindee/invoices/v4/${mode}`, {
        method: 'POST',
        headers: { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: server.url },
        body: form,
      });
      expect(response.status).toBe(mode === 'predict' ? 201 : 202);
    };
    await send('predict_async', 'async-v1.pdf');
    await send('predict', 'sync-v1.pdf');
    let asyncDoc: Awaited<ReturnType<typeof documentsNamed>> = [];
    let syncDoc: Awaited<ReturnType<typeof documentsNamed>> = [];
    for (let i = 0; i < 50 && (asyncDoc.length === 0 || syncDoc.length === 0); i++) {
      asyncDoc = await documentsNamed('async-v1');
      syncDoc = await documentsNamed('sync-v1');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(syncDoc[0]).toMatchObject({ apiVersion: 'v1', model: 'mindee/invoices/v4' });
    // Its result came with the answer.
    expect((await settle(syncDoc[0]?.id ?? '')).state).toBe('to_review');
    expect(asyncDoc[0]).toMatchObject({ apiVersion: 'v1', model: 'mindee/invoices/v4' });
    const settled = await settle(asyncDoc[0]?.id ?? '');
    expect(settled.state).toBe('to_review');

    // Feedback on it, sent from the review: recorded in its timeline.
    const patched = await fetch(
      `${server.url}/api/v1/documents/${settled.upstream_result_id ?? ''}/feedback`,
      {
        method: 'PATCH',
        headers: {
          Cookie: cookie,
          'X-CSRF-Token': csrf,
          Origin: server.url,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ feedback: { invoice_number: { value: 'INT-0042' } } }),
      },
    );
    expect(patched.status).toBe(200);
    await expect
      .poll(async () => {
        const timeline = (await (
          await fetch(`${server.url}/api/review/documents/${settled.id}/timeline`, {
            headers: { Cookie: cookie },
          })
        ).json()) as { events: { kind: string; data: unknown }[] };
        return timeline.events.find((e) => e.kind === 'feedback_sent');
      })
      .toMatchObject({ data: { method: 'PATCH', fields: ['invoice_number'] } });
    expect(JSON.parse(settled.result_json ?? '{}')).toMatchObject({ document: { name: 'async-v1.pdf' } });
  });

  it('tells who uploaded, which document a job brought, and that the same bytes came before', async () => {
    const own = (await generatePdf([{ lines: [{ text: 'Invoice number: DUP-0001', x: 72, y: 700 }] }])).bytes;
    const enqueue = async (name: string) => {
      const form = new FormData();
      form.set('model_id', INVOICE_MODEL_ID);
      form.set('file', new Blob([new Uint8Array(own)], { type: 'application/pdf' }), name);
      const response = await fetch(`${server.url}/api/v2/products/extraction/enqueue`, {
        method: 'POST',
        headers: { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: server.url },
        body: form,
      });
      expect(response.status).toBe(202);
      return ((await response.json()) as { job: { id: string } }).job.id;
    };
    const firstJob = await enqueue('dup-first.pdf');
    const secondJob = await enqueue('dup-second.pdf');
    const byJob = async (jobId: string) => {
      const response = await fetch(`${server.url}/api/review/jobs/v2/${jobId}`, {
        headers: { Cookie: cookie },
      });
      expect(response.status).toBe(200);
      return JobDocumentResponse.parse(await response.json()).document;
    };
    const first = await byJob(firstJob);
    const second = await byJob(secondJob);
    expect(first).toMatchObject({ fileName: 'dup-first.pdf', duplicateOf: null });
    expect(first.uploadedBy).toMatchObject({ name: 'Ada' });
    expect(second).toMatchObject({
      fileName: 'dup-second.pdf',
      duplicateOf: { id: first.id, fileName: 'dup-first.pdf' },
    });
    // The queue's listing and the document's own answer say the same.
    expect((await documentsNamed('dup-second'))[0]?.duplicateOf).toEqual({
      id: first.id,
      fileName: 'dup-first.pdf',
    });
    const opened = DocumentResponse.parse(
      await (
        await fetch(`${server.url}/api/review/documents/${second.id}`, { headers: { Cookie: cookie } })
      ).json(),
    ).document;
    expect(opened.duplicateOf).toEqual({ id: first.id, fileName: 'dup-first.pdf' });

    // "Mine": only what this operator uploaded.
    const mine = QueuePage.parse(
      await (
        await fetch(`${server.url}/api/review/documents?q=dup-&uploadedBy=${first.uploadedBy?.id ?? ''}`, {
          headers: { Cookie: cookie },
        })
      ).json(),
    );
    expect(mine.documents.map((d) => d.fileName).sort()).toEqual(['dup-first.pdf', 'dup-second.pdf']);
    const nobody = QueuePage.parse(
      await (
        await fetch(`${server.url}/api/review/documents?q=dup-&uploadedBy=someone-else`, {
          headers: { Cookie: cookie },
        })
      ).json(),
    );
    expect(nobody.documents).toEqual([]);

    // A job this server never saw: 404-016.
    const unknown = await fetch(`${server.url}/api/review/jobs/v2/no-such-job`, {
      headers: { Cookie: cookie },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: '404-016' });
    await settle(first.id);
    await settle(second.id);
  });

  it('keeps nothing of an upload the upstream refused', async () => {
    const before = (await review.queue.countByState(Date.now())).processing;
    const form = new FormData();
    form.set('model_id', '00000000-0000-4000-8000-000000000000');
    form.set('file', new Blob([new Uint8Array(pdf)]), 'refused.pdf');
    const refused = await fetch(`${server.url}/api/v2/products/extraction/enqueue`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-CSRF-Token': csrf, Origin: server.url },
      body: form,
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await documentsNamed('refused')).toEqual([]);
    expect((await review.queue.countByState(Date.now())).processing).toBe(before);
    // Neither the request's copy nor a file is left.
    const incoming = await readdir(path.join(store.settings.dataDir, 'incoming')).catch(() => []);
    expect(incoming).toEqual([]);
  });
});
