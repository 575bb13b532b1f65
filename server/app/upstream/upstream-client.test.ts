/**
 * The app server's upstream client against a real upstream on 127.0.0.1 (test-support/upstream.ts):
 * the base URL and key it adds, the contract's schemas on what it reads (recorded bodies from the
 * fixtures), its failures and their problem details. Time-outs run on fake timers, started once the
 * upstream has the request (an event), never measured.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { closedPort, startUpstream, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { errorCode, UpstreamFailure } from './exchange';
import { probeUpstream } from './probe';
import { UpstreamSchemaMismatch, UpstreamStatusError } from './upstream-client';
import { V1Upstream } from './v1-upstream';
import { V2Upstream } from './v2-upstream';

const fixture = async (name: string): Promise<string> => readFile(path.join(fixturesDir, name), 'utf8');

/** What each path answers; a path not listed is never answered (until the client gives up). */
const answers = new Map<string, (res: ServerResponse, upstreamUrl: string) => void>();

function json(status: number, body: string, headers: Record<string, string> = {}) {
  return (res: ServerResponse) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  };
}

/** A failure the promise rejects with, checked to be one. */
async function failure(promise: Promise<unknown>): Promise<UpstreamFailure> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UpstreamFailure);
  return error as UpstreamFailure;
}

describe('the upstream client', () => {
  let upstream: TestUpstream;
  /** The upstream's URL with a path prefix, as a base may have one. */
  let base: string;
  let processed: string;
  let inference: string;

  beforeAll(async () => {
    upstream = await startUpstream((req, res, url) => {
      req.resume();
      const answer = answers.get((req.url ?? '').replace(/^\/prefix/, ''));
      answer?.(res, url);
    });
    base = `${upstream.url}/prefix/`;
    processed = await fixture('v2/job/ok_processed_webhooks_ok.json');
    inference = await fixture('v2/products/extraction/financial_document/complete.json');
  });
  afterAll(() => upstream.close());
  afterEach(() => {
    vi.useRealTimers();
    answers.clear();
    upstream.requests.length = 0;
  });

  describe('v2', () => {
    it("adds the base URL and the server's key, and reads a job by the contract", async () => {
      answers.set('/v2/jobs/job%201?redirect=false', json(200, processed));
      const job = await new V2Upstream({ url: base, apiKey: 'server-key' }).getJob('job 1');
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]).toMatchObject({
        method: 'GET',
        url: '/prefix/v2/jobs/job%201?redirect=false',
        headers: { authorization: 'server-key', accept: 'application/json' },
      });
      // Read by the contract's schema: its zoneless timestamps are UTC.
      expect(job).toMatchObject({ status: 'Processed', created_at: '2026-04-20T18:27:58.974451Z' });
    });

    it('says a 404 is no job, another status an UpstreamStatusError, another body a mismatch', async () => {
      const v2 = new V2Upstream({ url: base, apiKey: 'k' });
      answers.set('/v2/jobs/gone?redirect=false', json(404, '{"status":404}'));
      answers.set('/v2/jobs/busy?redirect=false', json(503, '<html>'));
      answers.set('/v2/jobs/odd?redirect=false', json(200, '{"job":{"status":"Processing"}}'));
      expect(await v2.getJob('gone')).toBeUndefined();
      await expect(v2.getJob('busy')).rejects.toEqual(new UpstreamStatusError(503, 'the job answered 503'));
      const mismatch = await v2.getJob('odd').catch((error: unknown) => error);
      expect(mismatch).toBeInstanceOf(UpstreamSchemaMismatch);
      expect(v2.problemFor(mismatch)).toMatchObject({ code: '502-001' });
    });

    it("reads a model's data schema; none where the upstream has not the extension or the model", async () => {
      const v2 = new V2Upstream({ url: base, apiKey: 'k' });
      const schema = {
        model: {
          id: 'm-1',
          name: 'Invoice',
          data_schema: { fields: [{ name: 'total', title: 'Total', type: 'number' }] },
        },
      };
      answers.set('/v2/extensions/models/m-1', json(200, JSON.stringify(schema)));
      answers.set('/v2/extensions/models/hosted', json(404, '{"status":404}'));
      answers.set('/v2/extensions/models/busy', json(503, '<html>'));
      answers.set('/v2/extensions/models/odd', json(200, '{"model":{"id":"odd"}}'));
      const read = await v2.getModelSchema('m-1');
      expect(upstream.requests[0]).toMatchObject({
        url: '/prefix/v2/extensions/models/m-1',
        headers: { authorization: 'k' },
      });
      expect(read?.data_schema.fields).toEqual([
        expect.objectContaining({ name: 'total', title: 'Total', type: 'number', nested_fields: [] }),
      ]);
      expect(await v2.getModelSchema('hosted')).toBeNull();
      await expect(v2.getModelSchema('busy')).rejects.toBeInstanceOf(UpstreamStatusError);
      await expect(v2.getModelSchema('odd')).rejects.toBeInstanceOf(UpstreamSchemaMismatch);
    });

    it("reads a result at its URL's path on this upstream, kept as sent", async () => {
      answers.set('/v2/inferences/inf-1', json(200, inference));
      const result = await new V2Upstream({ url: base, apiKey: 'k' }).getResult(
        'https://api-v2.mindee.net/v2/inferences/inf-1',
      );
      expect(upstream.requests[0]?.url).toBe('/prefix/v2/inferences/inf-1');
      expect(result.inferenceId).toBe('inf-1');
      expect(result.text).toBe(inference);
      expect(Object.keys(result.result.inference.result.fields).length).toBeGreaterThan(0);
    });

    it('passes a RAG answer back as it came, and refuses one over the limit', async () => {
      answers.set(
        '/v2/extensions/rag/m-1/documents',
        json(201, '{"document":{"id":"r-1"}}', { Location: '/v2/extensions/rag/m-1/documents/r-1' }),
      );
      const v2 = new V2Upstream({ url: base, apiKey: 'k' });
      const reply = await v2.addRagDocument(
        '/v2/extensions/rag/m-1/documents',
        '{"fields":{}}',
        'application/json',
        {},
      );
      expect(upstream.requests[0]).toMatchObject({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '13', authorization: 'k' },
      });
      expect(reply.status).toBe(201);
      expect(reply.headers.get('location')).toBe('/v2/extensions/rag/m-1/documents/r-1');
      expect(reply.json()).toEqual({ document: { id: 'r-1' } });

      const tooLarge = await failure(
        v2.addRagDocument('/v2/extensions/rag/m-1/documents', '{}', 'application/json', {
          maxAnswerBytes: 8,
        }),
      );
      expect(tooLarge).toMatchObject({ kind: 'too-large', phase: 'answer' });
    });
  });

  describe('v1', () => {
    it('reads the queue: a 302 to the document, a job still processing, a failed one, or nothing known', async () => {
      const v1 = new V1Upstream({ url: base, apiKey: 'k' });
      const queue = '/v1/products/acme/invoices/v2/documents/queue/';
      answers.set(`${queue}done`, (res) => {
        res.writeHead(302, { Location: '/v1/products/acme/invoices/v2/documents/doc-9?x=1' });
        res.end();
      });
      answers.set(`${queue}busy`, json(200, await fixture('v1/async/get_processing.json')));
      answers.set(`${queue}failed`, json(500, await fixture('v1/async/get_failed_job_error.json')));
      answers.set(`${queue}gone`, json(404, '{}'));
      expect(await v1.getQueuedJob('acme/invoices/v2', 'done')).toEqual({
        kind: 'document',
        documentId: 'doc-9',
      });
      expect(await v1.getQueuedJob('acme/invoices/v2', 'busy')).toMatchObject({
        kind: 'job',
        job: { status: 'processing' },
      });
      expect(await v1.getQueuedJob('acme/invoices/v2', 'failed')).toMatchObject({
        kind: 'job',
        job: { status: 'failed' },
      });
      expect(await v1.getQueuedJob('acme/invoices/v2', 'gone')).toEqual({ kind: 'unknown', status: 404 });
      expect(upstream.requests.map((r) => r.headers.authorization)).toEqual(Array(4).fill('Token k'));
    });

    it('reads a document by the contract, kept as sent', async () => {
      const completed = await fixture('v1/async/get_completed.json');
      answers.set('/v1/products/acme/invoices/v2/documents/doc-9', json(200, completed));
      const fetched = await new V1Upstream({ url: base, apiKey: 'k' }).getDocument(
        'acme/invoices/v2',
        'doc-9',
      );
      expect(fetched.text).toBe(completed);
      expect(fetched.result.document.id).toBe('d88406ed-47bd-4db0-b3f3-145c8667a343');
    });
  });

  describe('failures', () => {
    it('times out a call the upstream never answers, and closes its connection', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const v2 = new V2Upstream({ url: base, apiKey: 'k' }, 5_000);
      const arrived = upstream.nextRequest('/prefix/v2/jobs/');
      const call = failure(v2.getJob('silent'));
      const request = await arrived;
      let settled = false;
      void call.finally(() => (settled = true));
      vi.advanceTimersByTime(4_999);
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      vi.advanceTimersByTime(1);
      const timedOut = await call;
      expect(timedOut).toMatchObject({ kind: 'timeout', phase: 'request' });
      await request.closed;
      expect(v2.problemFor(timedOut)).toMatchObject({
        code: '504-001',
        message: `The v2 upstream at ${upstream.url} timed out.`,
      });
    });

    it("ends a call at once when the caller's signal is aborted", async () => {
      const controller = new AbortController();
      const arrived = upstream.nextRequest('/prefix/v2/jobs/');
      const call = failure(
        new V2Upstream({ url: base, apiKey: 'k' }).getJob('held', { signal: controller.signal }),
      );
      const request = await arrived;
      controller.abort();
      expect(await call).toMatchObject({ kind: 'aborted' });
      await request.closed;
    });

    it('says an upstream nobody listens at could not be reached, with the system code', async () => {
      const v1 = new V1Upstream({ url: `http://127.0.0.1:${await closedPort()}`, apiKey: 'k' });
      const refused = await failure(v1.getQueuedJob('a/b/v1', 'j'));
      expect(refused).toMatchObject({ kind: 'network', phase: 'request', code: 'ECONNREFUSED' });
      expect(v1.problemFor(refused)).toMatchObject({
        code: '502-001',
        message: `Could not reach the v1 upstream at ${v1.origin} (ECONNREFUSED).`,
      });
    });
  });

  describe('the readiness probe', () => {
    it('is answered with any status, sends no key and reads no body; a closed port is its error code', async () => {
      answers.set('/', json(404, 'x'.repeat(1_000_000)));
      expect(await probeUpstream(upstream.url, new AbortController().signal)).toBe(404);
      expect(upstream.requests[0]?.headers.authorization).toBeUndefined();
      const refused = await probeUpstream(
        `http://127.0.0.1:${await closedPort()}`,
        new AbortController().signal,
      ).catch((error: unknown) => error);
      expect(errorCode(refused)).toBe('ECONNREFUSED');
    });
  });
});
