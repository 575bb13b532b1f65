/**
 * Deliveries over real HTTP to a receiver started by each test, which checks the signature over the
 * raw body as a real receiver must. Tiny retry delays keep the suite fast.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebhookResponse } from '@extraction-review/contract/v2/schemas';
import type { Clock } from '@extraction-review/server-kit/clock';
import { SqliteJobStore } from '../store/sqlite-job-store';
import { manualClock } from '@extraction-review/test-kit/manual-clock';
import { failedJob, MODEL_ID, processedJob } from '@extraction-review/test-kit/reference/webhooks-fixtures';
import {
  startReceiver,
  type AnswerScript,
  type TestReceiver,
} from '@extraction-review/test-kit/reference/webhooks-receiver';
import { WebhookDeliveryStore } from './delivery-store';
import { WebhookDispatcher, type RetryPolicy, type WebhookEndpoint } from './dispatcher';
import { V1_SIGNATURE_HEADERS, v1WebhookOwner } from '../v1/v1-webhooks';
import { catalogEndpoints, openWebhooks } from './webhooks-extension';

const SECRET = 'whsec_reference_test';
const FAST: Partial<RetryPolicy> = {
  maxAttempts: 3,
  initialDelayMs: 5,
  maxDelayMs: 20,
  attemptTimeoutMs: 2_000,
};

let dir: string;
let dbFile: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reference-webhooks-'));
  dbFile = path.join(dir, 'reference.sqlite');
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

function open(
  endpoints: WebhookEndpoint[],
  retry: Partial<RetryPolicy> = FAST,
  random = () => 0.5,
  clock?: Clock,
) {
  const db = new Database(dbFile);
  const store = new WebhookDeliveryStore(db);
  const logs: string[] = [];
  const dispatcher = new WebhookDispatcher({
    store,
    retry,
    random,
    clock,
    log: (message) => logs.push(message),
    resolveEndpoint: (modelId, endpointId) =>
      modelId === MODEL_ID ? endpoints.find((e) => e.id === endpointId) : undefined,
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await dispatcher.close();
    db.close();
  };
  cleanups.push(close);
  return { db, store, dispatcher, logs, close };
}

async function receiver(script: AnswerScript): Promise<TestReceiver> {
  const started = await startReceiver(SECRET, script);
  cleanups.push(() => started.close());
  return started;
}

const endpoint = (url: string, secret = SECRET): WebhookEndpoint => ({ id: randomUUID(), url, secret });

/** Parsed with the app's own schema: what the job JSON lists must read as the app expects. */
const asApp = (list: unknown) => WebhookResponse.array().parse(list);

describe('webhook delivery', () => {
  it('delivers on the first try: compact, signed JSON equal to the ExtractionResponse', async () => {
    const rx = await receiver(() => ({ status: 200 }));
    const hook = endpoint(`${rx.url}/hooks/v2`);
    const { dispatcher } = open([hook], FAST, () => 0.5, manualClock(Date.UTC(2026, 10, 25, 9, 0, 0, 250)));
    const { job, inference } = processedJob([hook.id]);

    expect(dispatcher.deliveriesFor(job.id)).toEqual([]);
    dispatcher.jobFinished(job, inference);
    // Listed at once, before any attempt has ended; recorded when the dispatcher's clock says.
    const [pending] = dispatcher.deliveriesFor(job.id);
    expect(pending).toMatchObject({ id: hook.id, status: 'Processing', attempts_count: 0, error: null });
    expect(pending?.created_at).toBe('2026-11-25T09:00:00.250000');

    await dispatcher.idle();
    const list = dispatcher.deliveriesFor(job.id);
    expect(list).toEqual([
      { id: hook.id, created_at: pending?.created_at, status: 'Processed', error: null, attempts_count: 1 },
    ]);
    expect(asApp(list)[0]).toMatchObject({ status: 'Processed', attempts_count: 1 });

    expect(rx.calls).toHaveLength(1);
    const [call] = rx.calls;
    expect(call?.method).toBe('POST');
    expect(call?.path).toBe('/hooks/v2');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.headers['user-agent']).toMatch(/reference/);
    expect(call?.headers['x-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(call?.signatureValid).toBe(true);
    const text = call?.body.toString('utf8') ?? '';
    expect(text).toBe(JSON.stringify({ inference: inference.body }));
    expect(text).not.toMatch(/\n|": /);
    expect(JSON.parse(text)).toEqual({ inference: inference.body });
    // Non-ASCII text is sent as UTF-8 and counted in bytes by Content-Length.
    expect(Number(call?.headers['content-length'])).toBe(Buffer.byteLength(text));
  });

  it('retries after failures and records the attempts', async () => {
    const rx = await receiver((n) => ({ status: n === 1 ? 500 : n === 2 ? 503 : 204 }));
    const hook = endpoint(rx.url);
    const { dispatcher } = open([hook]);
    const { job, inference } = processedJob([hook.id]);
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();

    expect(dispatcher.deliveriesFor(job.id)).toMatchObject([
      { id: hook.id, status: 'Processed', attempts_count: 3, error: null },
    ]);
    expect(rx.calls).toHaveLength(3);
    expect(rx.calls.every((c) => c.signatureValid)).toBe(true);
    expect(new Set(rx.calls.map((c) => c.body.toString()))).toHaveLength(1);
  });

  it('shows the last error while retrying, between attempts', async () => {
    const rx = await receiver((n) => ({ status: n === 1 ? 500 : 200 }));
    const hook = endpoint(rx.url);
    // The wait before the retry on a fake clock: it lasts until the test moves the clock, so the state
    // between the attempts is there to be seen however slowly the machine polls.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // The backoff is decided (random() called) once the failed attempt is recorded.
      let backoffs = 0;
      const { dispatcher } = open([hook], { ...FAST, initialDelayMs: 400, maxDelayMs: 400 }, () => {
        backoffs++;
        return 0.5;
      });
      const { job, inference } = processedJob([hook.id]);
      dispatcher.jobFinished(job, inference);
      while (backoffs < 1) await new Promise((resolve) => setImmediate(resolve));
      expect(dispatcher.deliveriesFor(job.id)).toMatchObject([
        {
          status: 'Processing',
          attempts_count: 1,
          error: { status: 502, detail: expect.stringMatching(/500/) },
        },
      ]);
      vi.advanceTimersToNextTimer();
      await dispatcher.idle();
      expect(dispatcher.deliveriesFor(job.id)).toMatchObject([
        { status: 'Processed', attempts_count: 2, error: null },
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits longer before each retry (exponential backoff, bounded)', async () => {
    const timed = await receiver(() => ({ status: 500 }));
    const hook = endpoint(timed.url);
    // random() = 0: the lowest jitter, exactly half of 40 ms, then of 80 ms, then the 100 ms cap halved.
    // Each call is a backoff being decided; its wait's timer is set in the same synchronous run.
    let backoffs = 0;
    const random = (): number => {
      backoffs++;
      return 0;
    };
    const waits: number[] = [];
    // The waits on a fake clock, moved by the test from one wait's timer to the next (the pending
    // 2 s attempt time-outs come later): each move is exactly the wait the dispatcher chose.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const { dispatcher } = open(
        [hook],
        { ...FAST, maxAttempts: 4, initialDelayMs: 40, maxDelayMs: 100 },
        random,
      );
      const { job, inference } = processedJob([hook.id]);
      dispatcher.jobFinished(job, inference);
      for (let retry = 1; retry <= 3; retry++) {
        while (backoffs < retry) await new Promise((resolve) => setImmediate(resolve));
        const before = performance.now();
        vi.advanceTimersToNextTimer();
        waits.push(performance.now() - before);
      }
      await dispatcher.idle();
    } finally {
      vi.useRealTimers();
    }
    expect(waits).toEqual([20, 40, 50]);
    expect(backoffs).toBe(3);
    expect(timed.calls).toHaveLength(4);
  });

  it('fails after the last attempt, with the last problem', async () => {
    const rx = await receiver(() => ({ status: 500 }));
    const hook = endpoint(rx.url);
    const { dispatcher, logs } = open([hook]);
    const { job, inference } = processedJob([hook.id]);
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();

    const [delivery] = asApp(dispatcher.deliveriesFor(job.id));
    expect(delivery).toMatchObject({ id: hook.id, status: 'Failed', attempts_count: 3 });
    expect(delivery?.error).toEqual({
      status: 502,
      title: expect.any(String),
      code: expect.stringMatching(/^502-\d{3}$/),
      detail: 'Attempt 3 of 3: the endpoint answered 500 Internal Server Error; a 2xx status is expected.',
      errors: [],
    });
    expect(rx.calls).toHaveLength(3);
    expect(logs).toEqual([
      expect.stringContaining(`webhook ${hook.id} of job ${job.id} failed after 3 attempt(s)`),
    ]);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const rx = await receiver(() => ({ status: 302, headers: { Location: '/elsewhere' } }));
    const hook = endpoint(`${rx.url}/hooks`);
    const { dispatcher } = open([hook], { ...FAST, maxAttempts: 2 });
    const { job, inference } = processedJob([hook.id]);
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();

    expect(rx.calls.map((c) => c.path)).toEqual(['/hooks', '/hooks']);
    expect(dispatcher.deliveriesFor(job.id)).toMatchObject([
      {
        status: 'Failed',
        attempts_count: 2,
        error: {
          status: 502,
          detail:
            'Attempt 2 of 2: the endpoint answered 302 Found to /elsewhere; redirects are not followed: configure the final URL.',
        },
      },
    ]);
  });

  it('times out a slow receiver', async () => {
    const rx = await receiver(() => ({ status: 200, delayMs: 1_000 }));
    const hook = endpoint(rx.url);
    const { dispatcher } = open([hook], { ...FAST, maxAttempts: 2, attemptTimeoutMs: 100 });
    const { job, inference } = processedJob([hook.id]);
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();

    expect(rx.calls).toHaveLength(2);
    // Each attempt was given up at its time-out: the dispatcher closed the connection before the
    // receiver's answer (a 200 after 1 s, which would have made the delivery a success).
    expect(await Promise.all(rx.calls.map((call) => call.closed))).toEqual([
      { answered: false },
      { answered: false },
    ]);
    expect(dispatcher.deliveriesFor(job.id)).toMatchObject([
      {
        status: 'Failed',
        attempts_count: 2,
        error: { status: 504, detail: 'Attempt 2 of 2: the endpoint did not answer within 100 ms.' },
      },
    ]);
  });

  it('fails on a connection error (nothing listening)', async () => {
    const rx = await startReceiver(SECRET, () => ({ status: 200 }));
    await rx.close();
    const hook = endpoint(rx.url);
    const { dispatcher } = open([hook], { ...FAST, maxAttempts: 2 });
    const { job, inference } = processedJob([hook.id]);
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();
    expect(dispatcher.deliveriesFor(job.id)).toMatchObject([
      {
        status: 'Failed',
        attempts_count: 2,
        error: {
          status: 502,
          detail: expect.stringMatching(
            /^Attempt 2 of 2: the endpoint could not be reached \(.*ECONNREFUSED/,
          ),
        },
      },
    ]);
  });

  it('signs with each endpoint’s own secret, and lists deliveries in the order of webhook_ids', async () => {
    const rx = await receiver(() => ({ status: 200 }));
    const good = endpoint(`${rx.url}/good`);
    const other = endpoint(`${rx.url}/other`, 'another-secret');
    const { dispatcher } = open([good, other]);
    const { job, inference } = processedJob([other.id, good.id, other.id.toUpperCase()]);
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();

    expect(dispatcher.deliveriesFor(job.id).map((d) => [d.id, d.status])).toEqual([
      [other.id, 'Processed'],
      [good.id, 'Processed'],
    ]);
    const byPath = Object.fromEntries(rx.calls.map((c) => [c.path, c.signatureValid]));
    // The test receiver checks with SECRET: only the endpoint configured with it verifies.
    expect(byPath).toEqual({ '/good': true, '/other': false });
  });

  it('skips endpoints it cannot call: not configured on the model, or not http(s)', async () => {
    const ftp = endpoint('ftp://127.0.0.1/hooks');
    const unknown = randomUUID();
    const { dispatcher } = open([ftp]);
    const { job, inference } = processedJob([unknown, ftp.id]);
    dispatcher.jobFinished(job, inference);
    // Final at once: never Processing, never attempted.
    const list = asApp(dispatcher.deliveriesFor(job.id));
    expect(list).toMatchObject([
      {
        id: unknown,
        status: 'Skipped',
        attempts_count: 0,
        error: {
          status: 404,
          detail: `No webhook endpoint with the id ${unknown} is configured on the model ${MODEL_ID}, so it was not called.`,
        },
      },
      {
        id: ftp.id,
        status: 'Skipped',
        attempts_count: 0,
        error: {
          status: 422,
          detail: `The webhook URL must use http or https, not ftp. The endpoint ${ftp.id} was not called.`,
        },
      },
    ]);
    await dispatcher.idle();
    expect(asApp(dispatcher.deliveriesFor(job.id))).toEqual(list);
  });

  it('sends a failed job’s failure payload (no inference), as the hosted service does', async () => {
    const rx = await receiver(() => ({ status: 200 }));
    const hook = endpoint(rx.url);
    const { dispatcher } = open([hook]);
    const job = failedJob([hook.id]);
    dispatcher.jobFinished(job);
    await dispatcher.idle();

    expect(dispatcher.deliveriesFor(job.id)).toMatchObject([{ status: 'Processed', attempts_count: 1 }]);
    expect(rx.calls[0]?.signatureValid).toBe(true);
    expect(JSON.parse(rx.calls[0]?.body.toString() ?? '')).toEqual({
      inference_id: job.id,
      model_id: MODEL_ID,
      file_name: 'scan.pdf',
      file_alias: null,
      error: job.error,
      created_at: '2026-03-14T09:26:53.589000Z',
    });
  });

  it('delivers once when told twice of the same job', async () => {
    const rx = await receiver(() => ({ status: 200 }));
    const hook = endpoint(rx.url);
    const { dispatcher } = open([hook]);
    const { job, inference } = processedJob([hook.id]);
    dispatcher.jobFinished(job, inference);
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();
    dispatcher.jobFinished(job, inference);
    await dispatcher.idle();
    expect(rx.calls).toHaveLength(1);
    expect(dispatcher.deliveriesFor(job.id)).toMatchObject([{ status: 'Processed', attempts_count: 1 }]);
  });

  it('records nothing for a job without webhooks', () => {
    const { dispatcher } = open([]);
    const { job, inference } = processedJob([]);
    dispatcher.jobFinished(job, inference);
    expect(dispatcher.deliveriesFor(job.id)).toEqual([]);
    expect(dispatcher.deliveriesFor(randomUUID())).toEqual([]);
  });
});

describe('webhook deliveries across restarts', () => {
  it('keeps final deliveries when the database is opened again', async () => {
    const rx = await receiver((n) => ({ status: n === 1 ? 500 : 200 }));
    const hook = endpoint(rx.url);
    const first = open([hook]);
    const { job, inference } = processedJob([hook.id]);
    first.dispatcher.jobFinished(job, inference);
    await first.dispatcher.idle();
    const before = first.dispatcher.deliveriesFor(job.id);
    await first.close();

    const second = open([hook]);
    expect(second.dispatcher.deliveriesFor(job.id)).toEqual(before);
    expect(before).toMatchObject([{ status: 'Processed', attempts_count: 2 }]);
    expect(second.dispatcher.resumeInterrupted()).toEqual({ resumed: 0 });
  });

  it('resumes a delivery cut short by a shutdown at the next start, with the same signed body', async () => {
    // The first run's receiver never answers in time; the shutdown comes mid-attempt.
    const slow = await receiver(() => ({ status: 200, delayMs: 5_000 }));
    const hook = endpoint(slow.url);
    const first = open([hook], { ...FAST, attemptTimeoutMs: 10_000 });
    const { job, inference } = processedJob([hook.id]);
    first.dispatcher.jobFinished(job, inference);
    while (slow.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.close();

    const second = open([]);
    expect(second.dispatcher.deliveriesFor(job.id)).toMatchObject([
      { status: 'Processing', attempts_count: 1, error: null },
    ]);
    await second.close();

    // The endpoint moved to a working receiver meanwhile: the models file is read again.
    const rx = await receiver(() => ({ status: 200 }));
    const third = open([{ ...hook, url: rx.url }]);
    expect(third.dispatcher.resumeInterrupted()).toEqual({ resumed: 1 });
    await third.dispatcher.idle();
    expect(third.dispatcher.deliveriesFor(job.id)).toMatchObject([
      { status: 'Processed', attempts_count: 2 },
    ]);
    expect(rx.calls[0]?.signatureValid).toBe(true);
    expect(rx.calls[0]?.body.toString()).toBe(slow.calls[0]?.body.toString());
    // The payload is not kept once every delivery of the job is final.
    expect(third.store.payloadOf(job.id)).toBeUndefined();
  });

  it('grants at least one more attempt to a delivery resumed with no attempts left', async () => {
    const slow = await receiver(() => ({ status: 500, delayMs: 5_000 }));
    const hook = endpoint(slow.url);
    const first = open([hook], { ...FAST, maxAttempts: 1, attemptTimeoutMs: 10_000 });
    const { job, inference } = processedJob([hook.id]);
    first.dispatcher.jobFinished(job, inference);
    while (slow.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.close();

    const rx = await receiver(() => ({ status: 500 }));
    const second = open([{ ...hook, url: rx.url }], { ...FAST, maxAttempts: 1 });
    second.dispatcher.resumeInterrupted();
    await second.dispatcher.idle();
    expect(second.dispatcher.deliveriesFor(job.id)).toMatchObject([
      { status: 'Failed', attempts_count: 2, error: { detail: expect.stringMatching(/^Attempt 2 of 2:/) } },
    ]);
  });

  it('fails a resumed delivery whose endpoint left the models file', async () => {
    const slow = await receiver(() => ({ status: 200, delayMs: 5_000 }));
    const hook = endpoint(slow.url);
    const first = open([hook], { ...FAST, attemptTimeoutMs: 10_000 });
    const { job, inference } = processedJob([hook.id]);
    first.dispatcher.jobFinished(job, inference);
    while (slow.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.close();

    const second = open([]);
    second.dispatcher.resumeInterrupted();
    await second.dispatcher.idle();
    expect(second.dispatcher.deliveriesFor(job.id)).toMatchObject([
      { status: 'Failed', attempts_count: 1, error: { status: 404 } },
    ]);
  });

  it('keeps to its own tables: the job store’s schema version and tables are untouched', async () => {
    new SqliteJobStore(dbFile).close();
    const db = new Database(dbFile);
    const tables = () =>
      db
        .prepare<[], { name: string; sql: string }>(
          `SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name`,
        )
        .all();
    const before = tables();
    const versionBefore = db.pragma('user_version', { simple: true });
    new WebhookDeliveryStore(db);
    new WebhookDeliveryStore(db); // idempotent
    const after = tables();
    expect(db.pragma('user_version', { simple: true })).toBe(versionBefore);
    // Everything that was there is there unchanged; what was added is the webhooks' own.
    expect(after).toEqual(expect.arrayContaining(before));
    expect(after.filter((t) => !before.some((b) => b.name === t.name)).map((t) => t.name)).toEqual(
      expect.arrayContaining(['webhook_deliveries', 'webhook_deliveries_by_status', 'webhook_payloads']),
    );
    expect(
      after
        .map((t) => t.name)
        .filter((name) => !before.some((b) => b.name === name))
        .every((name) => name.startsWith('webhook_') || name === 'schema_versions'),
    ).toBe(true);
    expect(db.prepare(`SELECT version FROM schema_versions WHERE component = 'webhooks'`).get()).toEqual({
      version: 1,
    });
    db.close();
    // The job store still opens the file.
    new SqliteJobStore(dbFile).close();
  });
});

describe('webhooks extension', () => {
  it('reads endpoints from the model catalogue, ids in any case', () => {
    const hook = {
      id: 'A2286ED9-AA11-4A11-BDC5-2F8496C5641A',
      name: 'A',
      url: 'https://hooks.test/a',
      secret: 's',
    };
    const resolve = catalogEndpoints({ find: (id) => (id === MODEL_ID ? { webhooks: [hook] } : undefined) });
    expect(resolve(MODEL_ID, hook.id.toLowerCase())).toEqual({
      id: hook.id.toLowerCase(),
      url: hook.url,
      secret: 's',
    });
    expect(resolve(MODEL_ID, randomUUID())).toBeUndefined();
    expect(resolve(randomUUID(), hook.id)).toBeUndefined();
  });

  it("reads a v1 product's endpoints under its owner key, signed in the v1 headers", () => {
    const hook = { id: 'b2286ed9-aa11-4a11-bdc5-2f8496c5641a', url: 'https://hooks.test/v1', secret: 's1' };
    const owner = v1WebhookOwner({ account: 'Mindee', name: 'invoices', version: '4' });
    const resolve = catalogEndpoints({
      find: () => ({ webhooks: [{ ...hook, secret: 'a v2 model' }] }),
      findProductByKey: (key) => (key === 'mindee/invoices/4' ? { webhooks: [hook] } : undefined),
    });
    expect(resolve(owner, hook.id)).toEqual({ ...hook, signatureHeaders: V1_SIGNATURE_HEADERS });
    expect(
      resolve(v1WebhookOwner({ account: 'mindee', name: 'invoices', version: '3' }), hook.id),
    ).toBeUndefined();
    // A v2 model id still resolves as before, with the v2 header.
    expect(resolve(MODEL_ID, hook.id)).toEqual({ ...hook, secret: 'a v2 model' });
  });

  it('resumes at opening what the previous run left in progress', async () => {
    const slow = await receiver(() => ({ status: 200, delayMs: 5_000 }));
    const hook = endpoint(slow.url);
    const first = open([hook], { ...FAST, attemptTimeoutMs: 10_000 });
    const { job, inference } = processedJob([hook.id]);
    first.dispatcher.jobFinished(job, inference);
    while (slow.calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.close();

    const rx = await receiver(() => ({ status: 200 }));
    const db = new Database(dbFile);
    const messages: string[] = [];
    const webhooks = openWebhooks(
      { database: db, models: { find: () => ({ webhooks: [{ ...hook, url: rx.url }] }) } },
      { retry: FAST, log: (message) => messages.push(message) },
    );
    cleanups.push(async () => {
      await webhooks.close();
      db.close();
    });
    await webhooks.dispatcher.idle();
    expect(webhooks.webhookDeliveries.deliveriesFor(job.id)).toMatchObject([
      { status: 'Processed', attempts_count: 2 },
    ]);
    expect(messages).toEqual([]);
  });
});
