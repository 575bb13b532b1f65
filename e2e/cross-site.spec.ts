/**
 * Another web site cannot use the app server: a page served by this test from another origin (another
 * port on 127.0.0.1) tries what an attacker's page would, while the app is open in the same browser,
 * and a page reached under a foreign name (DNS rebinding: Chromium maps rebind.test to 127.0.0.1) tries
 * to read the app's answers. Nothing is created upstream; the app itself still extracts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { countReferenceJobs } from './support/reference-store';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';

const ENQUEUE = '/api/v2/products/extraction/enqueue';

let attacker: http.Server;
let attackerUrl = '';

test.beforeAll(async () => {
  attacker = http.createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="en"><title>A page the operator visits</title><h1>Win a prize</h1>',
    );
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  attacker.closeAllConnections();
  await new Promise((resolve) => attacker.close(resolve));
});

/** In the page: a multipart enqueue body with a real PDF, as any page can build one. */
async function sendEnqueue(page: Page, appOrigin: string, mode: 'no-cors' | 'cors' | 'same-origin') {
  const pdf = [...(await invoicePdf({ invoiceNumber: 'CSRF-0001' }))];
  return page.evaluate(
    async ({ url, modelId, bytes, mode }) => {
      const form = new FormData();
      form.set('model_id', modelId);
      form.set('file', new File([new Uint8Array(bytes)], 'prize.pdf', { type: 'application/pdf' }));
      try {
        // The app's own page sends its session's token, as the app does; another site has none.
        const session = mode === 'same-origin' ? await fetch('/api/session') : undefined;
        const token = session?.ok ? ((await session.json()) as { csrfToken: string }).csrfToken : undefined;
        const headers: Record<string, string> = token === undefined ? {} : { 'X-CSRF-Token': token };
        const response = await fetch(url, { method: 'POST', body: form, mode, headers });
        return { type: response.type, status: response.status, body: await response.text() };
      } catch (error) {
        return { type: 'error', status: 0, body: String(error) };
      }
    },
    { url: `${appOrigin}${ENQUEUE}`, modelId: INVOICE_MODEL_ID, bytes: pdf, mode },
  );
}

test('a page of another origin can neither make the app server act nor read its answers', async ({
  page,
  context,
  baseURL,
}) => {
  const appOrigin = new URL(baseURL ?? '').origin;
  // The operator has the app open in another tab of the same browser.
  const app = await context.newPage();
  await app.goto('/');
  await expect(app.getByRole('heading', { name: 'New extraction' })).toBeVisible();
  const jobsBefore = countReferenceJobs();

  await page.goto(attackerUrl);
  await expect(page.getByRole('heading', { name: 'Win a prize' })).toBeVisible();

  // 1. fetch with mode no-cors: a "simple" multipart POST, no preflight. The page could not read the
  // answer (Cross-Origin-Resource-Policy even blocks the opaque one), but without the check the server
  // would have acted on it. The DevTools protocol sees what the server answered.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // The response is blocked before the page sees it, so its status comes from the raw exchange. The
  // protocol may report the raw answer before or after the request itself: both are kept by id.
  const enqueueRequests = new Set<string>();
  const statuses = new Map<string, number>();
  let settle: (status: number) => void = () => undefined;
  const answered = new Promise<number>((resolve, reject) => {
    settle = resolve;
    setTimeout(() => reject(new Error('no answer to the cross-site enqueue seen in 20 s')), 20_000);
  });
  const check = (requestId: string) => {
    const status = statuses.get(requestId);
    if (enqueueRequests.has(requestId) && status !== undefined) settle(status);
  };
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url !== `${appOrigin}${ENQUEUE}`) return;
    enqueueRequests.add(event.requestId);
    check(event.requestId);
  });
  cdp.on('Network.responseReceivedExtraInfo', (event) => {
    statuses.set(event.requestId, event.statusCode);
    check(event.requestId);
  });
  cdp.on('Network.responseReceived', (event) => {
    if (!statuses.has(event.requestId)) statuses.set(event.requestId, event.response.status);
    check(event.requestId);
  });
  const blind = await sendEnqueue(page, appOrigin, 'no-cors');
  expect(blind.type).toBe('error');
  expect(await answered).toBe(403);

  // 2. A form POSTed to the app, its file set by script: the browser shows the server's refusal.
  const pdf = [...(await invoicePdf({ invoiceNumber: 'CSRF-0002' }))];
  const formAnswer = page.waitForResponse((r) => r.url() === `${appOrigin}${ENQUEUE}`);
  await page.evaluate(
    ({ action, modelId, bytes }) => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = action;
      form.enctype = 'multipart/form-data';
      const model = document.createElement('input');
      model.name = 'model_id';
      model.value = modelId;
      const file = document.createElement('input');
      file.type = 'file';
      file.name = 'file';
      const files = new DataTransfer();
      files.items.add(new File([new Uint8Array(bytes)], 'prize.pdf', { type: 'application/pdf' }));
      file.files = files.files;
      form.append(model, file);
      document.body.append(form);
      form.submit();
    },
    { action: `${appOrigin}${ENQUEUE}`, modelId: INVOICE_MODEL_ID, bytes: pdf },
  );
  expect((await formAnswer).status()).toBe(403);
  await expect(page.getByText('Cross-site request refused')).toBeVisible();
  await keepScreenshot(page, 'cross-site-form-refused');

  // 3. Reading: a CORS fetch of an answer, and the job events, are refused by the browser (no
  // Access-Control-Allow-Origin); a JSON POST fails at its preflight.
  await page.goto(attackerUrl);
  const reads = await page.evaluate(async (origin) => {
    const attempt = async (run: () => Promise<Response>) => {
      try {
        const response = await run();
        return `read ${response.status}`;
      } catch {
        return 'refused';
      }
    };
    const events = await new Promise<string>((resolve) => {
      const source = new EventSource(`${origin}/api/events`);
      source.onopen = () => resolve('open');
      source.onerror = () => resolve('refused');
      setTimeout(() => resolve('timeout'), 5_000);
    });
    return {
      health: await attempt(() => fetch(`${origin}/api/health`)),
      config: await attempt(() => fetch(`${origin}/api/app-config`, { credentials: 'include' })),
      json: await attempt(() =>
        fetch(`${origin}/api/v2/products/extraction/enqueue`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"model_id":"x","url":"https://example.com/a.pdf"}',
        }),
      ),
      events,
    };
  }, appOrigin);
  expect(reads).toEqual({ health: 'refused', config: 'refused', json: 'refused', events: 'refused' });

  // Nothing reached the reference service.
  expect(countReferenceJobs()).toBe(jobsBefore);

  // The app itself, in its own tab, still sends the same request and is answered.
  const own = await sendEnqueue(app, appOrigin, 'same-origin');
  expect(own.status).toBe(202);
  expect(JSON.parse(own.body)).toMatchObject({ job: { status: 'Processing' } });
  expect(countReferenceJobs()).toBe(jobsBefore + 1);
});

test('a page reached under a foreign name (DNS rebinding) gets nothing from the app server', async ({
  page,
  baseURL,
}) => {
  const port = new URL(baseURL ?? '').port;
  const rebound = `http://rebind.test:${port}`;
  // The name resolves to 127.0.0.1 (--host-resolver-rules), as a rebinding attacker's DNS would make it.
  const answer = await page.goto(`${rebound}/`);
  expect(answer?.status()).toBe(421);
  await expect(page.getByText('Host not allowed')).toBeVisible();
  await expect(page.getByText('ALLOWED_HOSTS')).toBeVisible();
  await keepScreenshot(page, 'rebinding-refused');

  // Same-origin for the browser now: every read and write is refused by the Host check.
  const jobsBefore = countReferenceJobs();
  const statuses = await page.evaluate(async () => {
    const status = (response: Response) => response.status;
    const form = new FormData();
    form.set('model_id', 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a');
    form.set('file', new File(['%PDF-1.4'], 'x.pdf'));
    return {
      health: await fetch('/api/health').then(status),
      config: await fetch('/api/app-config').then(status),
      events: await fetch('/api/events').then(status),
      enqueue: await fetch('/api/v2/products/extraction/enqueue', { method: 'POST', body: form }).then(
        status,
      ),
    };
  });
  expect(statuses).toEqual({ health: 421, config: 421, events: 421, enqueue: 421 });
  expect(countReferenceJobs()).toBe(jobsBefore);
});
