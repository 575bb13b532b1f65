/**
 * The deployment example, deployed (issue 22): nginx with the committed site
 * (deploy/nginx/extraction-review.conf) and a certificate made here, in front of two app-server copies
 * started with the committed environment file (deploy/extraction-review.env) on one PostgreSQL. Only
 * what a test machine must change is changed: the copies' database, upstream (this run's reference
 * service), ports and folders, and copy A applies the migrations. An operator signs in, the queue hears
 * the document's events through nginx's event stream, and the document is reviewed and confirmed, all
 * over HTTPS; nginx's access log shows both copies answered, with the request ids they logged.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { expect, test } from '@playwright/test';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import {
  startPostgresCluster,
  type PostgresCluster,
} from '@extraction-review/test-kit/review/postgres-cluster';
import { testCertificates } from '@extraction-review/test-kit/reference/test-tls';
import { keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { confirmThroughGate } from './support/confirm-through-gate';
import { startNginx, type Nginx } from './support/nginx';
import { NOBODY, addOperator, enqueuePdf, signIn } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';

const ADMIN = 'Dora';
const FILE_NAME = 'behind-nginx.pdf';

let cluster: PostgresCluster | undefined;
let dir: string | undefined;
const copies: MainProcess[] = [];
let nginx: Nginx | undefined;

/** The committed environment file, with what this machine must change. */
async function copyEnv(name: string, databaseUrl: string): Promise<Record<string, string>> {
  const example = parseEnv(await readFile(path.join('deploy', 'extraction-review.env'), 'utf8'));
  const reference = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? ''}`;
  return {
    ...(example as Record<string, string>),
    DATABASE_URL: databaseUrl,
    UPSTREAM_V2_URL: reference,
    UPSTREAM_V2_API_KEY: 'e2e-reference-key',
    UPSTREAM_V1_URL: reference,
    UPSTREAM_V1_API_KEY: 'e2e-reference-key',
    // What the systemd unit sets per copy, and this run's build of the app.
    PORT: '0',
    APP_DATA_DIR: path.join(dir ?? '', name),
    DEV: '',
    STATIC_DIR: path.join(os.tmpdir(), `extraction-review-e2e-dist-${process.env.E2E_RUN_ID ?? ''}`),
    // `npm run migrate` before the copies, done by the first copy instead (one process fewer).
    MIGRATE_ON_START: name === 'a' ? 'true' : 'false',
  };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dir = await mkdtemp(path.join(os.tmpdir(), 'behind-nginx-'));
  cluster = await startPostgresCluster();
  const databaseUrl = cluster.url;
  copies.push(await startMainProcess(await copyEnv('a', databaseUrl)));
  const [b] = await Promise.all([
    startMainProcess(await copyEnv('b', databaseUrl)),
    addOperator(ADMIN, 'admin', { APP_DATA_DIR: path.join(dir, 'admin'), DATABASE_URL: databaseUrl }),
  ]);
  copies.push(b);

  const { key, cert } = await testCertificates();
  const [certificate, keyFile] = [path.join(dir, 'cert.pem'), path.join(dir, 'key.pem')];
  await writeFile(certificate, cert);
  await writeFile(keyFile, key, { mode: 0o600 });
  const [a] = copies;
  nginx = await startNginx(dir, {
    copies: [new URL(a?.url ?? '').host, new URL(b.url).host],
    certificate,
    key: keyFile,
  });
});

test.afterAll(async () => {
  await nginx?.stop();
  for (const copy of copies) await copy.stop();
  await cluster?.stop();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

test('an operator reviews a document through nginx over HTTPS, served by both copies', async ({
  browser,
}) => {
  if (nginx === undefined || copies.length !== 2) throw new Error('not deployed');
  const context = await browser.newContext({
    baseURL: nginx.url,
    ignoreHTTPSErrors: true,
    storageState: NOBODY,
  });
  const page = await context.newPage();
  try {
    await signIn(page, ADMIN);
    // The session cookie is Secure: the copies believed nginx's X-Forwarded-Proto (TRUST_PROXY).
    expect((await context.cookies()).every((cookie) => cookie.secure)).toBe(true);

    // The event stream through nginx: the document's events arrive while it is processed.
    const heard = page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const states: string[] = [];
          const source = new EventSource('/api/events');
          source.addEventListener('queue', (event) => {
            const { state } = JSON.parse((event as MessageEvent<string>).data) as { state: string };
            states.push(state);
            if (state === 'to_review') {
              source.close();
              resolve(states);
            }
          });
        }),
    );
    await enqueuePdf(
      page.request,
      { name: FILE_NAME, buffer: Buffer.from(await invoicePdf({ invoiceNumber: 'NGINX-1' })) },
      INVOICE_MODEL_ID,
    );
    expect(await heard).toContain('to_review');

    // Reviewed and confirmed in the browser, every request through nginx.
    await page.getByRole('link', { name: FILE_NAME, exact: true }).click();
    await page.getByRole('button', { name: 'Review this document' }).click();
    await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true', {
      timeout: 30_000,
    });
    await expect(valueOf(page, 'invoice_number')).toHaveValue('NGINX-1');
    await keepScreenshot(page, 'behind-nginx-review');
    await confirmThroughGate(page);
    await expect(page.getByText(`Confirmed by ${ADMIN}`)).toBeVisible();

    // The header the app leaves to the proxy, and the redirect from plain HTTP.
    const answer = await page.request.get('/api/session');
    expect(answer.headers()['strict-transport-security']).toBe('max-age=31536000');
    const requestId = answer.headers()['x-request-id'];
    const plain = await page.request.get(`${nginx.plainUrl}/queue`, { maxRedirects: 0 });
    expect(plain.status()).toBe(301);
    expect(plain.headers().location).toMatch(/^https:\/\/127\.0\.0\.1\/queue$/);

    // Both copies answered, and each logged nginx's request ids (X-Request-Id from a trusted proxy).
    const lines = await nginx.accessLog();
    expect(lines.map((line) => line.request_id)).toContain(requestId);
    for (const copy of copies) {
      const upstream = new URL(copy.url).host;
      const served = lines.filter((line) => line.upstream === upstream).map((line) => line.request_id);
      expect(served.length, `requests ${upstream} answered`).toBeGreaterThan(0);
      expect(served.some((id) => copy.output().includes(`"request_id":"${id}"`))).toBe(true);
    }
  } finally {
    await context.close();
  }
});
