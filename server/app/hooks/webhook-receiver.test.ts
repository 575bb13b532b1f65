/**
 * `POST /hooks/v2` over real HTTP: the signature is checked on the raw bytes before anything is parsed
 * (good, missing, malformed, tampered, wrong secret), the size limit holds with and without
 * `Content-Length`, the body must be JSON and one of the two payloads, a receiver without a secret
 * refuses everything, and an accepted call reaches the browsers' event stream (once, even when
 * delivered twice).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponse } from '@extraction-review/contract/v2/schemas';
import { signPayload } from '@extraction-review/server-kit/webhook-signature';
import { webhookPayload } from '@extraction-review/test-kit/reference/reference-service';
import { createApp } from '../create-app';
import { AppEventHub } from '../events/app-event-hub';
import { listen, type RunningServer } from '../listen';
import { json, rawRequest, type RawResponse } from '@extraction-review/test-kit/app/http-client';
import { openSse, type SseClient } from '@extraction-review/test-kit/app/sse-client';

const SECRET = 'whsec-receiver-test-secret';
const HOOK_ID = '0d3c2b1a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const JOB_ID = '7a0e4c1b-2d3f-4e5a-9b6c-8d7e6f5a4b3c';
const INFERENCE_ID = '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';
const MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
const MAX_BODY = 64 * 1024;

/** A processed job's payload: an ExtractionResponse, compact as the upstream sends it. */
function processedPayload(jobId = JOB_ID, inferenceId = INFERENCE_ID): string {
  return JSON.stringify({
    inference: {
      id: inferenceId,
      job: { id: jobId },
      model: { id: MODEL_ID },
      file: { name: 'invoice.pdf', alias: null, page_count: 1, mime_type: 'application/pdf' },
      result: {
        fields: { total_amount: { value: 83.5, locations: [], confidence: 'High' } },
        raw_text: null,
        rag: null,
      },
      active_options: {
        raw_text: false,
        polygon: false,
        confidence: true,
        rag: false,
        multipage_context: false,
        text_context: false,
        data_schema: { replace: false },
      },
    },
  });
}

/** A failed job's payload, made by the reference service's own code. */
function failedPayload(jobId: string): string {
  return webhookPayload({
    id: jobId,
    modelId: MODEL_ID,
    filename: 'scan.pdf',
    alias: null,
    createdAt: '2026-03-14T09:26:53.589Z',
    error: { status: 422, title: 'Unreadable document', detail: 'Damaged.', code: '422-003', errors: [] },
  });
}

let hub: AppEventHub;
let app: RunningServer;
let unconfigured: RunningServer;
let stream: SseClient;

beforeAll(async () => {
  hub = new AppEventHub();
  app = await listen(
    createApp({
      upstream: {},
      staticDir: null,
      webhooks: { v2: { secret: SECRET, ids: [HOOK_ID] }, maxBodyBytes: MAX_BODY },
      events: hub,
    }),
    { host: '127.0.0.1', port: 0 },
  );
  unconfigured = await listen(createApp({ upstream: {}, staticDir: null }), { host: '127.0.0.1', port: 0 });
  stream = await openSse(`${app.url}/api/events`);
});

afterAll(async () => {
  stream.close();
  hub.close();
  await app.close();
  await unconfigured.close();
});

function post(
  body: string | Buffer,
  headers: Record<string, string | undefined> = {},
  server: RunningServer = app,
): Promise<RawResponse> {
  const given = { 'Content-Type': 'application/json', 'X-Signature': signPayload(SECRET, body), ...headers };
  // `undefined` leaves a header out.
  const all = Object.fromEntries(
    Object.entries(given).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return rawRequest(`${server.url}/hooks/v2`, { method: 'POST', headers: all, body });
}

function expectProblemOf(response: RawResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json');
  const problem = ErrorResponse.parse(json(response));
  expect(problem).toMatchObject({ status, code });
  return problem;
}

const jobEvents = (client: SseClient) => client.blocks().filter((block) => block.event === 'job');

describe('POST /hooks/v2', () => {
  it('accepts a signed processed-job payload and tells the connected browsers', async () => {
    const before = jobEvents(stream).length;
    const response = await post(processedPayload());
    expect(response.status).toBe(204);
    expect(response.body.length).toBe(0);

    const blocks = await stream.waitFor((all) => all.filter((b) => b.event === 'job').length > before);
    const event = blocks.filter((b) => b.event === 'job').at(-1);
    expect(event?.id).toMatch(new RegExp(`^${hub.run}-\\d+$`));
    const data = JSON.parse(event?.data ?? '') as Record<string, unknown>;
    expect(data).toEqual({
      version: 'v2',
      jobId: JOB_ID,
      status: 'Processed',
      inferenceId: INFERENCE_ID,
      receivedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it("accepts the reference service's failed-job payload, its inference_id taken as the job's id", async () => {
    const failedJob = '3b2a1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
    expect((await post(failedPayload(failedJob))).status).toBe(204);
    const blocks = await stream.waitFor((all) => all.some((b) => b.data?.includes(failedJob) === true));
    const event = blocks.find((b) => b.data?.includes(failedJob) === true);
    expect(JSON.parse(event?.data ?? '')).toEqual({
      version: 'v2',
      jobId: failedJob,
      status: 'Failed',
      receivedAt: expect.any(String),
    });
  });

  it('accepts the signature in upper-case hex too', async () => {
    const body = processedPayload('6c5b4a39-2817-4f6e-9d5c-4b3a29180716');
    expect((await post(body, { 'X-Signature': signPayload(SECRET, body).toUpperCase() })).status).toBe(204);
  });

  it('broadcasts a delivery repeated by the upstream only once, and acknowledges both', async () => {
    const jobId = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
    const body = processedPayload(jobId);
    expect((await post(body)).status).toBe(204);
    expect((await post(body)).status).toBe(204);
    // A later, different event proves the stream went on past where a repeat would have been.
    const marker = '0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d';
    expect((await post(processedPayload(marker))).status).toBe(204);
    const blocks = await stream.waitFor((all) => all.some((b) => b.data?.includes(marker) === true));
    expect(blocks.filter((b) => b.data?.includes(jobId) === true)).toHaveLength(1);
  });

  describe('refuses, before parsing anything, a call that is not signed with the secret', () => {
    it('without X-Signature: 401-009', async () => {
      expectProblemOf(await post(processedPayload(), { 'X-Signature': undefined }), 401, '401-009');
      expectProblemOf(await post(processedPayload(), { 'X-Signature': '' }), 401, '401-009');
    });

    it('with a malformed one: 401-010', async () => {
      expectProblemOf(await post(processedPayload(), { 'X-Signature': 'sha256=abc' }), 401, '401-010');
      expectProblemOf(await post(processedPayload(), { 'X-Signature': 'z'.repeat(64) }), 401, '401-010');
    });

    it('with the signature of another body (tampered): 401-010', async () => {
      const genuine = processedPayload();
      const tampered = genuine.replace('83.5', '8350');
      const response = await post(tampered, { 'X-Signature': signPayload(SECRET, genuine) });
      expectProblemOf(response, 401, '401-010');
    });

    it('signed with another secret: 401-010', async () => {
      const body = processedPayload();
      expectProblemOf(await post(body, { 'X-Signature': signPayload('another', body) }), 401, '401-010');
    });

    it('over the raw bytes: the same JSON re-serialised with spaces is not what was signed', async () => {
      const compact = processedPayload();
      const spaced = JSON.stringify(JSON.parse(compact), null, 2);
      expectProblemOf(await post(spaced, { 'X-Signature': signPayload(SECRET, compact) }), 401, '401-010');
    });

    it('even when the payload itself is unknown: the signature comes first', async () => {
      expectProblemOf(await post('{"hello":1}', { 'X-Signature': undefined }), 401, '401-009');
      expectProblemOf(await post('not json', { 'X-Signature': undefined }), 401, '401-009');
    });

    it('and publishes nothing for any of them', async () => {
      const count = hub.currentId;
      await post(processedPayload('11111111-2222-4333-8444-555555555555'), { 'X-Signature': undefined });
      expect(hub.currentId).toBe(count);
    });
  });

  describe('size', () => {
    it('refuses a body over the limit from its Content-Length: 413-001', async () => {
      const big = Buffer.alloc(MAX_BODY + 1, 0x20);
      expectProblemOf(await post(big), 413, '413-001');
    });

    it('refuses a chunked body once it passes the limit', async () => {
      const response = await new Promise<RawResponse>((resolve, reject) => {
        const request = http.request(
          `${app.url}/hooks/v2`,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Signature': '0'.repeat(64) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
            );
          },
        );
        request.on('error', reject);
        // No Content-Length: Node sends it chunked.
        for (let i = 0; i < 4; i++) request.write(Buffer.alloc(MAX_BODY / 2, 0x20));
        request.end();
      });
      expectProblemOf(response, 413, '413-001');
    });

    it('takes a body of exactly the limit', async () => {
      const body = processedPayload().padEnd(MAX_BODY, ' ');
      expect(Buffer.byteLength(body)).toBe(MAX_BODY);
      expect((await post(body)).status).toBe(204);
    });
  });

  describe('content, once the signature holds', () => {
    it('must be JSON by its Content-Type: 415-001', async () => {
      expectProblemOf(await post(processedPayload(), { 'Content-Type': 'text/plain' }), 415, '415-001');
      expectProblemOf(await post(processedPayload(), { 'Content-Type': undefined }), 415, '415-001');
    });

    it('must parse as JSON: 400-001', async () => {
      expectProblemOf(await post('{"inference": '), 400, '400-001');
      expectProblemOf(await post(Buffer.from([0x7b, 0xff, 0x7d])), 400, '400-001');
    });

    it('a signed body nested deeper than 64 levels: 422-010 before it is parsed', async () => {
      const deep = `{"inference":{"result":{"fields":${'['.repeat(5_000)}${']'.repeat(5_000)}}}}`;
      const problem = expectProblemOf(await post(deep), 422, '422-010');
      expect(problem.errors?.[0]?.pointer).toBe(`#/inference/result/fields${'/0'.repeat(61)}`);
    });

    it('must be an ExtractionResponse or a failed-inference payload: 422-007, with pointers', async () => {
      const unknown = expectProblemOf(await post('{"hello":"world"}'), 422, '422-007');
      expect(unknown.errors).toEqual([{ pointer: '#', detail: expect.any(String) }]);
      expectProblemOf(await post('[1,2]'), 422, '422-007');
      expectProblemOf(await post('null'), 422, '422-007');

      const broken = JSON.parse(processedPayload()) as { inference: Record<string, unknown> };
      delete broken.inference.job;
      const problem = expectProblemOf(await post(JSON.stringify(broken)), 422, '422-007');
      expect(problem.errors.map((e) => e.pointer)).toContain('#/inference/job');

      const noId = JSON.parse(failedPayload(JOB_ID)) as Record<string, unknown>;
      delete noId.inference_id;
      const failed = expectProblemOf(await post(JSON.stringify(noId)), 422, '422-007');
      expect(failed.errors.map((e) => e.pointer)).toEqual(['#/inference_id']);
    });
  });

  describe('routes', () => {
    it('answers other methods with 405 and Allow: POST, and other hook paths with 404-003', async () => {
      const get = await rawRequest(`${app.url}/hooks/v2`);
      expectProblemOf(get, 405, '405-001');
      expect(get.headers.allow).toBe('POST');
      expectProblemOf(
        await rawRequest(`${app.url}/hooks/v1`, { method: 'POST', body: '{}' }),
        404,
        '404-003',
      );
    });
  });

  describe('without a signing secret', () => {
    it('refuses every call, signed or not, with 404-007', async () => {
      const problem = expectProblemOf(await post(processedPayload(), {}, unconfigured), 404, '404-007');
      expect(problem.detail).toMatch(/WEBHOOK_V2_SECRET/);
      expectProblemOf(await post('{}', { 'X-Signature': undefined }, unconfigured), 404, '404-007');
    });
  });
});
