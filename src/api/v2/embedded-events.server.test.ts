/**
 * The whole path of a job event, as `npm start` wires it: `server/main.ts` in its own process with the
 * embedded reference service. A browser (the app's own helpers, a real EventSource) reads
 * /api/app-config, subscribes to /api/events, enqueues a document through /api/v2 with the advertised
 * webhook id, and hears of the job from the reference service's signed webhook to /hooks/v2. Also:
 * the extension's model schema through the proxy, and a quick shutdown with a stream still open.
 * As in the app, the browser is an operator's, signed in: its cookie and CSRF token go with every call.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Agent, EventSource, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../http';
import { rememberCsrfToken } from '@extraction-review/contract/review/csrf';
import { runOperatorsCommand } from '@extraction-review/app-server/review/cli/operators-command';
import { getAppConfig, subscribeToAppEvents, type JobEvent } from './app-events';
import { enqueueExtraction, getJob, searchModels } from './endpoints';
import { getModelSchema } from './model-schema';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import { INVOICE_MODEL_ID } from '@extraction-review/test-kit/reference/reference-harness';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import { openSse } from '@extraction-review/test-kit/app/sse-client';
import { componentMessages } from '@extraction-review/test-kit/log-capture';

let main: MainProcess;
let dataDir: string;
let client: ApiClient;
let cookie = '';
let restoreFetch: (() => void) | undefined;
let withCookie: Dispatcher;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-events-'));
  main = await startMainProcess({
    REFERENCE_DATA_DIR: dataDir,
    APP_DATA_DIR: path.join(dataDir, 'app'),
    REFERENCE_API_KEY: 'embedded-events-key',
  });
  client = createApiClient({ baseUrl: `${main.url}/api` });

  // An operator, made with the operators command on the server's own store, signs in.
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  const added = await runOperatorsCommand(['add', 'Events', '--role', 'operator'], {
    stdin: Readable.from(['events password 123']),
    stdout: quiet,
    stderr: quiet,
    env: { APP_DATA_DIR: path.join(dataDir, 'app'), DATABASE_URL: '' },
  });
  expect(added).toBe(0);
  const signedIn = await fetch(`${main.url}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Events', password: 'events password 123' }),
  });
  const session = (await signedIn.json()) as { csrfToken: string };
  cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  rememberCsrfToken(session.csrfToken);
  // The browser's cookie jar: every request to the app server carries the session cookie.
  const plainFetch = globalThis.fetch;
  restoreFetch = () => (globalThis.fetch = plainFetch);
  globalThis.fetch = (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set('cookie', cookie);
    return input instanceof Request
      ? plainFetch(new Request(input, { headers }))
      : plainFetch(input, { ...init, headers });
  };
  withCookie = new Agent().compose(
    (dispatch) => (options, handler) =>
      dispatch({ ...options, headers: { ...(options.headers as Record<string, string>), cookie } }, handler),
  );
});

afterAll(async () => {
  restoreFetch?.();
  rememberCsrfToken(undefined);
  await main?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${main.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('job events with the embedded reference service', () => {
  it('advertises the webhook the embedded service calls back, on every model, without its secret', async () => {
    const config = await getAppConfig({ client });
    expect(config.events).toBe(true);
    expect(config.v2.webhookIds).toHaveLength(1);
    const [hookId] = config.v2.webhookIds;

    const { models } = await searchModels({}, { client });
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) {
      expect(model.webhooks).toContainEqual({
        id: hookId,
        name: 'extraction-review',
        url: `${main.url}/hooks/v2`,
      });
    }
    expect(main.output()).toMatch(/Job events: on/);
  });

  it('pushes a job enqueued with that webhook id to the browsers, from the signed webhook', async () => {
    const config = await getAppConfig({ client });
    const received: JobEvent[] = [];
    const unsubscribe = subscribeToAppEvents(
      { onJob: (event) => received.push(event) },
      {
        client,
        // A browser's EventSource sends the origin's cookies: this one is told to.
        EventSource: class extends EventSource {
          constructor(url: string) {
            super(url, { dispatcher: withCookie });
          }
        },
      },
    );
    try {
      const pdf = await generatePdf([
        {
          lines: [
            { text: 'ACME Industrial Supplies GmbH', x: 72, y: 740, size: 16 },
            { text: 'Invoice number: INV-2024-0042', x: 72, y: 690 },
            { text: 'Total: 1,234.56', x: 72, y: 500 },
          ],
        },
      ]);
      const { job } = await enqueueExtraction(
        {
          model_id: INVOICE_MODEL_ID,
          file: new Blob([new Uint8Array(pdf.bytes)], { type: 'application/pdf' }),
          filename: 'invoice.pdf',
          webhook_ids: config.v2.webhookIds,
        },
        { client },
      );

      await waitUntil(() => received.some((event) => event.jobId === job.id), 'the job event');
      const event = received.find((e) => e.jobId === job.id);
      expect(event).toMatchObject({ version: 'v2', jobId: job.id, status: 'Processed' });

      // What the event says agrees with the job, and the upstream recorded the delivery as done.
      const { job: final } = await getJob(job.id, { client });
      expect(final.status).toBe('Processed');
      expect(final.result_url).toMatch(new RegExp(`/${event?.inferenceId}$`));
      const deliveryOf = async () =>
        (await getJob(job.id, { client })).job.webhooks.find((w) => w.id === config.v2.webhookIds[0]);
      let delivery = await deliveryOf();
      for (let i = 0; delivery?.status !== 'Processed' && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        delivery = await deliveryOf();
      }
      expect(delivery).toMatchObject({ status: 'Processed', attempts_count: 1, error: null });
    } finally {
      unsubscribe();
    }
  });

  it("serves a model's schema through the proxy, for the app's own fetch function", async () => {
    const schema = await getModelSchema(INVOICE_MODEL_ID, { client });
    expect(schema?.id).toBe(INVOICE_MODEL_ID);
    expect(schema?.data_schema.fields.some((f) => f.type === 'classification')).toBe(true);
    expect(await getModelSchema('00000000-0000-4000-8000-000000000000', { client })).toBeNull();
  });

  it('stops promptly on SIGTERM although a browser still holds an event stream', async () => {
    const stream = await openSse(`${main.url}/api/events`, { Cookie: cookie });
    await stream.waitFor((blocks) => blocks.length > 0);
    const stopped = main.stop('SIGTERM');
    await stream.ended;
    expect(await stopped).toBe(0);
    // The shutdown ended the stream itself, before closing the server: the server had nothing to cut
    // at the end of its grace period (shutdown.ts logs `N cut at the end of the grace` otherwise).
    const shutdown = componentMessages(main.output(), 'shutdown');
    const ended = shutdown.findIndex((line) => line.includes('event streams ended'));
    const closed = shutdown.findIndex((line) => line.includes('every connection closed'));
    expect(ended).toBeGreaterThanOrEqual(0);
    expect(closed).toBeGreaterThan(ended);
    expect(shutdown[closed]).toMatch(/^every connection closed: \d+ request\(s\) in flight finished$/);
    expect(main.output()).not.toContain('cut at the end of the grace');
  });
});
