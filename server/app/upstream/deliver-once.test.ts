/**
 * One way-back attempt (deliver-once.ts) against a real receiver on 127.0.0.1: what it sends, how it
 * reads the answer (no redirect followed, `Retry-After`), its time-out up to the status line (fake
 * timers, started once the receiver has the request), the worker's stop, and a webhook's connection
 * pinned to the address that was vetted, whatever its name.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startUpstream, summariseBody, type TestUpstream } from '@extraction-review/test-kit/app/upstream';
import { deliverOnce } from './deliver-once';
import { V1Upstream } from './v1-upstream';
import { V2Upstream } from './v2-upstream';

const answers = new Map<string, (res: ServerResponse) => void>();
const bodies: string[] = [];

describe('a delivery attempt', () => {
  let receiver: TestUpstream;
  let stop: AbortController;

  beforeAll(async () => {
    receiver = await startUpstream(async (req, res) => {
      bodies.push((await summariseBody(req)).text ?? '');
      answers.get(req.url ?? '')?.(res);
    });
  });
  afterAll(() => receiver.close());
  afterEach(() => {
    vi.useRealTimers();
    answers.clear();
    bodies.length = 0;
    receiver.requests.length = 0;
  });
  const init = () => {
    stop = new AbortController();
    return { headers: { 'Content-Type': 'application/json' }, timeoutMs: 10_000, signal: stop.signal };
  };

  it("sends v1 feedback as a PATCH and a RAG document as a POST, each with the server's key on a fresh connection", async () => {
    answers.set('/v1/documents/doc%2F1/feedback', (res) => res.writeHead(200).end('{}'));
    answers.set('/v2/extensions/rag/model-a/documents', (res) => res.writeHead(201).end('{}'));
    const feedback = await new V1Upstream({ url: receiver.url, apiKey: 'k1' }).deliverFeedback(
      'doc/1',
      Buffer.from('{"feedback":{}}'),
      init(),
    );
    const rag = await new V2Upstream({ url: receiver.url, apiKey: 'k2' }).deliverRagDocument(
      'model-a',
      Buffer.from('{"fields":{}}'),
      init(),
    );
    expect(feedback).toEqual({ kind: 'delivered', status: 200 });
    expect(rag).toEqual({ kind: 'delivered', status: 201 });
    expect(
      receiver.requests.map(({ method, headers }) => [method, headers.authorization, headers.connection]),
    ).toEqual([
      ['PATCH', 'Token k1', 'close'],
      ['POST', 'k2', 'close'],
    ]);
    expect(bodies).toEqual(['{"feedback":{}}', '{"fields":{}}']);
  });

  it('does not follow a redirect, and reads Retry-After', async () => {
    answers.set('/hook', (res) => res.writeHead(307, { Location: 'http://elsewhere.example/' }).end());
    answers.set('/busy', (res) => res.writeHead(429, 'Slow Down', { 'Retry-After': '7' }).end());
    const url = (p: string) => new URL(`${receiver.url}${p}`);
    expect(await deliverOnce(url('/hook'), Buffer.from('{}'), { ...init(), method: 'POST' })).toEqual({
      kind: 'status',
      status: 307,
      statusText: 'Temporary Redirect',
      location: 'http://elsewhere.example/',
      retryAfterMs: null,
    });
    expect(await deliverOnce(url('/busy'), Buffer.from('{}'), { ...init(), method: 'POST' })).toMatchObject({
      kind: 'status',
      status: 429,
      retryAfterMs: 7_000,
    });
    expect(receiver.requests).toHaveLength(2);
  });

  it('times out when no status line comes, and ends as aborted when the worker stops', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const url = new URL(`${receiver.url}/silent`);
    const arrived = receiver.nextRequest('/silent');
    const attempt = deliverOnce(url, Buffer.from('{}'), { ...init(), method: 'POST' });
    const request = await arrived;
    vi.advanceTimersByTime(10_000);
    expect(await attempt).toEqual({ kind: 'timeout' });
    await request.closed;

    const stopping = deliverOnce(url, Buffer.from('{}'), { ...init(), method: 'POST' });
    const second = await receiver.nextRequest('/silent');
    stop.abort();
    expect(await stopping).toEqual({ kind: 'aborted' });
    await second.closed;
  });

  it('connects a webhook to the vetted address, whatever its name resolves to, keeping the name as Host', async () => {
    answers.set('/hook', (res) => res.writeHead(204).end());
    const port = new URL(receiver.url).port;
    const outcome = await deliverOnce(
      new URL(`http://hooks.example.invalid:${port}/hook`),
      Buffer.from('{}'),
      {
        ...init(),
        method: 'POST',
        pinned: { address: '127.0.0.1', family: 4 },
      },
    );
    expect(outcome).toEqual({ kind: 'delivered', status: 204 });
    expect(receiver.requests[0]?.headers.host).toBe(`hooks.example.invalid:${port}`);
  });
});
