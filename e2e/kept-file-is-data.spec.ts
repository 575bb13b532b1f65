/**
 * Kept files are data, never a page of ours (issue 18, item 1), in the real Chromium against the real
 * app server. The attack: an operator imports an HTML page whose script makes an admin, and waits
 * for an admin to open the file's `/file` address. Today the import is refused (`422-011`); a PDF
 * with the same page inside it (a polyglot whose bytes are a PDF) is kept as a PDF; and a file kept
 * before intake checked types (written into the store as it was then, with its sender's
 * `text/html`) is still served as data. The admin opens both addresses: no script runs (no dialog,
 * no console message), no request leaves the page, and no operator is made.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect, test, type BrowserContext } from '@playwright/test';
import { openReview } from '@extraction-review/app-server/review/open-review';
import { keepScreenshot } from './support/artifacts';
import { csrfHeader, e2eAppDataDir, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';

/** What the operator's script would do in an admin's browser: make an admin, and say so. */
function attackScript(admin: string): string {
  return [
    `alert('script ran');`,
    `console.log('script ran');`,
    `fetch('/api/session').then((r) => r.json()).then((s) => fetch('/api/operators', {`,
    `  method: 'POST',`,
    `  headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': s.csrfToken },`,
    `  body: JSON.stringify({ name: '${admin}', role: 'admin', password: 'pwned pwned pwned 1' }),`,
    `}));`,
  ].join('\n');
}

/**
 * The operator's page: the script inline, and again from a kept JS file on our own origin (which the
 * app's `script-src 'self'` would allow: the way the attacker made an admin).
 */
function attackPage(admin: string, scriptFileId: string): string {
  return (
    `<!doctype html><html><body><img src="/api/health?img">` +
    `<script src="/api/review/documents/${scriptFileId}/file"></script>` +
    `<script>${attackScript(admin)}</script></body></html>`
  );
}

/**
 * What one visit to an address did, in a tab of its own (nothing else in it asks for anything):
 * requests other than the address, dialogs, console messages.
 */
async function visit(context: BrowserContext, url: string) {
  const page = await context.newPage();
  const requests: string[] = [];
  const dialogs: string[] = [];
  const messages: string[] = [];
  const onRequest = (request: { url(): string }) => requests.push(request.url());
  const onDialog = (dialog: { message(): string; dismiss(): Promise<void> }) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  };
  // What the page itself says. The browser's own doings are left out: its PDF viewer
  // (chrome-extension:, chrome:) and its own ask for /favicon.ico (Chromium 156 asks it for a PDF shown
  // inline; the app has none: a 404 the page did not make).
  const onConsole = (message: { text(): string; location(): { url: string } }) => {
    const { url } = message.location();
    if (/^chrome(-extension)?:/.test(url) || new URL(url, 'http://x').pathname === '/favicon.ico') return;
    messages.push(`${message.text()} (${url})`);
  };
  page.on('request', onRequest);
  page.on('dialog', onDialog);
  page.on('console', onConsole);
  let downloaded: string | undefined;
  const download = page.waitForEvent('download', { timeout: 5_000 }).then(
    (event) => (downloaded = event.suggestedFilename()),
    () => undefined,
  );
  // An attachment answers the navigation with a download (Playwright reports the navigation aborted).
  const answer = await page.goto(url).catch(() => null);
  await Promise.race([download, page.waitForLoadState('load').catch(() => undefined)]);
  if (answer === null) await download;
  // The script, had it run, would have asked for /api/session at once: give it the page's idle time.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  page.off('request', onRequest);
  page.off('dialog', onDialog);
  page.off('console', onConsole);
  return {
    page,
    answer,
    downloaded,
    // The address itself, and the browser's own viewer (chrome-extension:, data:, blob:), are not
    // requests the page made to anyone.
    left: requests.filter((r) => /^https?:/.test(r) && r !== url),
    dialogs,
    messages,
  };
}

test('an admin opens kept HTML files’ addresses: no script runs, no request leaves, no admin is made', async ({
  context,
  request,
  baseURL,
}) => {
  const mallory = uniqueName('mallory');
  const script = attackScript(mallory);
  const scriptId = randomUUID();
  const html = attackPage(mallory, scriptId);
  const jobId = uniqueName('kept-html');

  // The operator's import of the page and of the script is refused for its bytes, whatever it is called.
  const csrf = await csrfHeader(request);
  for (const [name, mimeType, content] of [
    ['invoice.html', 'text/html', html],
    ['invoice.pdf', 'application/pdf', html],
    ['invoice.js', 'text/javascript', script],
  ] as const) {
    const refused = await request.post('/api/review/import', {
      headers: csrf,
      multipart: {
        metadata: JSON.stringify({
          apiVersion: 'v2',
          model: INVOICE_MODEL_ID,
          fileName: name,
          upstreamJobId: `${jobId}-${name}`,
        }),
        result: JSON.stringify({ inference: { id: `inf-${jobId}`, result: { fields: {} } } }),
        file: { name, mimeType, buffer: Buffer.from(content) },
      },
    });
    expect(refused.status()).toBe(422);
    expect(await refused.json()).toMatchObject({ code: '422-011', errors: [{ pointer: '#/file' }] });
  }

  // A file kept before intake checked types, as it was kept then (its sender's type), and a PDF that
  // carries the page after its header (a PDF by its bytes, so kept today).
  const pdf = Buffer.from(await invoicePdf({ invoiceNumber: 'INV-KF-1' }));
  const polyglot = Buffer.concat([pdf.subarray(0, 15), Buffer.from(`\n%${html}\n`), pdf.subarray(15)]);
  const review = await openReview({ dataDir: e2eAppDataDir() });
  const kept: Record<'script' | 'html' | 'polyglot', string> = { script: scriptId, html: '', polyglot: '' };
  try {
    for (const [which, bytes, name, mimeType] of [
      ['script', Buffer.from(script), 'invoice.js', 'text/javascript'],
      ['html', Buffer.from(html), 'invoice.html', 'text/html'],
      ['polyglot', polyglot, 'invoice-polyglot.html', 'text/html'],
    ] as const) {
      const id = which === 'script' ? scriptId : randomUUID();
      const stored = await review.files?.save(id, Readable.from([bytes]));
      await review.queue.addDocument(
        {
          id,
          apiVersion: 'v2',
          modelKey: INVOICE_MODEL_ID,
          fileName: name,
          mimeType,
          fileKey: id,
          fileBytes: stored?.bytes ?? null,
          fileSha256: stored?.sha256 ?? null,
          upstreamJobId: `${jobId}-${which}`,
        },
        Date.now(),
      );
      kept[which] = id;
    }
  } finally {
    await review.close();
  }

  const operatorsBefore = await request.get('/api/operators');
  expect(operatorsBefore.status()).toBe(200);
  const countBefore = ((await operatorsBefore.json()) as { operators: unknown[] }).operators.length;

  // The admin (the journeys' operator is one) opens each address in the browser.
  for (const which of ['html', 'polyglot'] as const) {
    const url = new URL(`/api/review/documents/${kept[which]}/file`, baseURL).href;
    const seen = await visit(context, url);
    expect(seen.dialogs).toEqual([]);
    expect(seen.messages).toEqual([]);
    expect(seen.left).toEqual([]);
    if (which === 'html') {
      // Not a document by its bytes: saved, never shown.
      expect(seen.downloaded).toBe('invoice.html');
    } else if (seen.answer !== null) {
      const headers = await seen.answer.allHeaders();
      expect(headers['content-type']).toBe('application/pdf');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['content-security-policy']).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
      await keepScreenshot(seen.page, 'kept-polyglot-opened');
    }
  }

  const operators = (await (await request.get('/api/operators')).json()) as {
    operators: { name: string }[];
  };
  expect(operators.operators).toHaveLength(countBefore);
  expect(operators.operators.map((o) => o.name)).not.toContain(mallory);
});
