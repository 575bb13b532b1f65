/**
 * `GET /api/events` and `GET /api/app-config` over real HTTP: the stream's headers and opening, two
 * browsers receiving one event pushed by a signed webhook, heartbeats, `Last-Event-ID` replay (and
 * `resync` when a replay is impossible), subscribers dropped when they go away, streams ended by
 * `close()`; the browser's own helpers (`subscribeToAppEvents` with a real EventSource, `getAppConfig`)
 * against the same server.
 */
import { EventSource } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../http';
import {
  AppConfig,
  getAppConfig,
  JobEvent,
  parseAppEvent,
  subscribeToAppEvents,
  type ResyncEvent,
} from './app-events';
import { signPayload } from '@extraction-review/server-kit/webhook-signature';
import { createApp } from '@extraction-review/app-server/create-app';
import { listen, type RunningServer } from '@extraction-review/app-server/listen';
import { json, rawRequest } from '@extraction-review/test-kit/app/http-client';
import { openSse, type SseBlock, type SseClient } from '@extraction-review/test-kit/app/sse-client';
import { AppEventHub } from '@extraction-review/app-server/events/app-event-hub';

const SECRET = 'whsec-events-test';
const HOOK_IDS = ['0d3c2b1a-4e5f-4a6b-8c7d-9e0f1a2b3c4d', '1e4d3c2b-5f6a-4b7c-9d8e-0f1a2b3c4d5e'];

let hub: AppEventHub;
let app: RunningServer;
const open: SseClient[] = [];

beforeAll(async () => {
  hub = new AppEventHub({ heartbeatMs: 100, bufferSize: 3 });
  app = await listen(
    createApp({
      upstream: {},
      staticDir: null,
      webhooks: { v2: { secret: SECRET, ids: HOOK_IDS } },
      events: hub,
    }),
    { host: '127.0.0.1', port: 0 },
  );
});

afterAll(async () => {
  for (const client of open) client.close();
  hub.close();
  await app.close();
});

async function connect(headers: Record<string, string> = {}): Promise<SseClient> {
  const client = await openSse(`${app.url}/api/events`, headers);
  open.push(client);
  return client;
}

/** A failed-job webhook, signed: the smallest payload the receiver accepts. */
async function pushFailedJob(jobId: string): Promise<void> {
  const body = JSON.stringify({
    inference_id: jobId,
    error: { status: 500, title: 'Processing failed', detail: '', code: '500-002', errors: [] },
  });
  const response = await rawRequest(`${app.url}/hooks/v2`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Signature': signPayload(SECRET, body) },
    body,
  });
  expect(response.status).toBe(204);
}

const jobIdsIn = (blocks: SseBlock[]): string[] =>
  blocks.filter((b) => b.event === 'job').map((b) => JobEvent.parse(JSON.parse(b.data ?? '')).jobId);

const jobId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function waitUntil(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('GET /api/events', () => {
  it('is an unbuffered event stream that opens with a retry hint and the current id', async () => {
    const client = await connect();
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-store, no-transform');
    expect(client.headers['x-accel-buffering']).toBe('no');
    expect(client.headers['content-length']).toBeUndefined();
    const [first] = await client.waitFor((blocks) => blocks.length > 0);
    expect(first).toEqual({ retry: '3000', id: hub.currentId, comments: [] });
    client.close();
  });

  it('sends an event pushed by a signed webhook to every connected browser', async () => {
    const a = await connect();
    const b = await connect();
    await waitUntil(() => hub.subscriberCount >= 2);
    await pushFailedJob(jobId(1));
    for (const client of [a, b]) {
      const blocks = await client.waitFor((all) => jobIdsIn(all).includes(jobId(1)));
      const event = blocks.find((block) => block.event === 'job');
      expect(event?.id).toMatch(/^[0-9a-f]+-\d+$/);
      expect(JobEvent.parse(JSON.parse(event?.data ?? ''))).toMatchObject({
        version: 'v2',
        jobId: jobId(1),
        status: 'Failed',
      });
    }
    a.close();
    b.close();
  });

  it('answers HEAD with the headers alone, subscribing nobody', async () => {
    for (const client of open) client.close();
    await waitUntil(() => hub.subscriberCount === 0);
    const head = await rawRequest(`${app.url}/api/events`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(hub.subscriberCount).toBe(0);
  });

  it('sends a heartbeat comment regularly', async () => {
    const client = await connect();
    await client.waitFor((blocks) => blocks.filter((b) => b.comments.includes('heartbeat')).length >= 2);
    client.close();
  });

  it('replays what a reconnecting browser missed after its Last-Event-ID', async () => {
    const client = await connect();
    await pushFailedJob(jobId(2));
    const seen = await client.waitFor((all) => jobIdsIn(all).includes(jobId(2)));
    const lastId = seen.filter((b) => b.event === 'job').at(-1)?.id ?? '';
    client.close();

    // Gone for a while: two jobs finish meanwhile.
    await pushFailedJob(jobId(3));
    await pushFailedJob(jobId(4));

    const again = await connect({ 'Last-Event-ID': lastId });
    const blocks = await again.waitFor((all) => jobIdsIn(all).includes(jobId(4)));
    expect(jobIdsIn(blocks)).toEqual([jobId(3), jobId(4)]);
    expect(blocks[0]).toEqual({ retry: '3000', comments: [] });
    expect(blocks.filter((b) => b.event === 'job').at(-1)?.id).toBe(hub.currentId);

    // Up to date: nothing to replay.
    const current = await connect({ 'Last-Event-ID': hub.currentId });
    await current.waitFor((all) => all.some((b) => b.comments.includes('heartbeat')));
    expect(current.blocks().filter((b) => b.event !== undefined)).toEqual([]);
  });

  it('asks for a resync when it cannot replay: an id of another run, or older than the buffer', async () => {
    const resyncOf = async (lastEventId: string): Promise<{ reason: ResyncEvent['reason']; id?: string }> => {
      const client = await connect({ 'Last-Event-ID': lastEventId });
      const blocks = await client.waitFor((all) => all.some((b) => b.event === 'resync'));
      client.close();
      const event = blocks.find((b) => b.event === 'resync');
      const parsed = parseAppEvent('resync', event?.data ?? '');
      if (parsed?.type !== 'resync') throw new Error(`not a resync: ${event?.data}`);
      return { reason: parsed.data.reason, id: event?.id };
    };
    expect(await resyncOf('0badc0de-1')).toEqual({ reason: 'unknown', id: hub.currentId });
    expect(await resyncOf('whatever')).toEqual({ reason: 'unknown', id: hub.currentId });
    expect(await resyncOf(`${hub.run}-999999`)).toEqual({ reason: 'unknown', id: hub.currentId });

    // The buffer keeps 3 events: an id 4 events back has lost one.
    const before = hub.currentId;
    for (let n = 10; n < 14; n++) await pushFailedJob(jobId(n));
    expect(await resyncOf(before)).toEqual({ reason: 'expired', id: hub.currentId });
  });

  it('drops the subscribers of browsers that went away', async () => {
    for (const client of open) client.close();
    await waitUntil(() => hub.subscriberCount === 0);
    const clients = [await connect(), await connect(), await connect()];
    await waitUntil(() => hub.subscriberCount === 3);
    clients[0]?.close();
    await waitUntil(() => hub.subscriberCount === 2);
    for (const client of clients) client.close();
    await waitUntil(() => hub.subscriberCount === 0);
  });

  it('reaches the browser helper through a real EventSource, parsed with the shared schemas', async () => {
    const client = createApiClient({ baseUrl: `${app.url}/api` });
    const received: JobEvent[] = [];
    const connected: boolean[] = [];
    const unsubscribe = subscribeToAppEvents(
      { onJob: (event) => received.push(event), onConnectionChange: (up) => connected.push(up) },
      { client, EventSource },
    );
    try {
      await waitUntil(() => connected.includes(true));
      await pushFailedJob(jobId(20));
      await waitUntil(() => received.some((event) => event.jobId === jobId(20)));
      expect(received.at(-1)).toEqual({
        version: 'v2',
        jobId: jobId(20),
        status: 'Failed',
        receivedAt: expect.any(String),
      });
    } finally {
      unsubscribe();
    }
  });

  it('ends every stream when the hub closes, so the server can stop at once', async () => {
    const ownHub = new AppEventHub();
    const server = await listen(createApp({ upstream: {}, staticDir: null, events: ownHub }), {
      host: '127.0.0.1',
      port: 0,
    });
    const client = await openSse(`${server.url}/api/events`);
    await waitUntil(() => ownHub.subscriberCount === 1);
    ownHub.close();
    const closed = server.close();
    await client.ended;
    // The hub ended the stream, not the server: a stream left open would hold its connection through
    // the server's grace period and be cut at its end (counted in `cut`).
    expect(await closed).toMatchObject({ cut: 0 });
    expect(ownHub.subscriberCount).toBe(0);
  });
});

describe('GET /api/app-config', () => {
  it('advertises the webhook ids and that events are on, never cached', async () => {
    const response = await rawRequest(`${app.url}/api/app-config`);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(json(response)).toEqual({
      v2: { webhookIds: HOOK_IDS },
      events: true,
      v1: { confidenceThresholds: null },
    });
    expect(await getAppConfig({ client: createApiClient({ baseUrl: `${app.url}/api` }) })).toEqual({
      v2: { webhookIds: HOOK_IDS },
      events: true,
      v1: { confidenceThresholds: null },
    });
  });

  it('says events are off, with no ids, when no webhook is configured', async () => {
    const server = await listen(createApp({ upstream: {}, staticDir: null }), { host: '127.0.0.1', port: 0 });
    try {
      const response = await rawRequest(`${server.url}/api/app-config`);
      expect(AppConfig.parse(json(response))).toEqual({
        v2: { webhookIds: [] },
        events: false,
        v1: { confidenceThresholds: null },
      });
    } finally {
      await server.close();
    }
  });

  it("advertises the operator's v1 confidence thresholds", async () => {
    const thresholds = { certain: 0.9, high: 0.75, medium: 0.5 };
    const server = await listen(
      createApp({ upstream: {}, staticDir: null, v1ConfidenceThresholds: thresholds }),
      {
        host: '127.0.0.1',
        port: 0,
      },
    );
    try {
      const response = await rawRequest(`${server.url}/api/app-config`);
      expect(AppConfig.parse(json(response)).v1.confidenceThresholds).toEqual(thresholds);
    } finally {
      await server.close();
    }
  });
});
