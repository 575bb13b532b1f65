/**
 * Two app-server copies on one PostgreSQL server behave as one queue: a document uploaded through
 * copy A enters the queue (A's job follower), and a browser connected to copy B hears of it at once
 * through B's event stream (PostgreSQL LISTEN/NOTIFY between the copies) and sees it in B's queue.
 * Both copies use this run's reference service as their upstream; the PostgreSQL server is a
 * throw-away one from Debian's binaries.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import {
  startPostgresCluster,
  type PostgresCluster,
} from '@extraction-review/test-kit/review/postgres-cluster';
import { NOBODY, PASSWORD, addOperator, enqueuePdf } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';

let cluster: PostgresCluster;
let dataDir: string;
const copies: MainProcess[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPostgresCluster();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'two-copies-'));
  const runId = process.env.E2E_RUN_ID ?? '';
  const reference = `http://127.0.0.1:${process.env.E2E_REFERENCE_PORT ?? ''}`;
  for (const name of ['a', 'b']) {
    copies.push(
      await startMainProcess({
        DEV: '',
        STATIC_DIR: path.join(os.tmpdir(), `extraction-review-e2e-dist-${runId}`),
        APP_DATA_DIR: path.join(dataDir, name),
        DATABASE_URL: cluster.url,
        UPSTREAM_V2_URL: reference,
        UPSTREAM_V2_API_KEY: 'e2e-reference-key',
        UPSTREAM_V1_URL: reference,
        UPSTREAM_V1_API_KEY: 'e2e-reference-key',
      }),
    );
  }
  await addOperator('Dora', 'admin', { APP_DATA_DIR: path.join(dataDir, 'a'), DATABASE_URL: cluster.url });
});

test.afterAll(async () => {
  for (const copy of copies) await copy.stop();
  await cluster?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('an event made on one copy reaches a browser on the other', async ({ browser }) => {
  const [a, b] = copies;
  if (a === undefined || b === undefined) throw new Error('copies not started');

  // A browser on copy B, signed in, its event stream open, the queue shown.
  const context = await browser.newContext({ baseURL: b.url, storageState: NOBODY });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Name').fill('Dora');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Team queue' })).toBeVisible();
  const heard = page.evaluate(
    () =>
      new Promise<{ state: string }[]>((resolve) => {
        const seen: { state: string }[] = [];
        const source = new EventSource('/api/events');
        source.addEventListener('queue', (event) => {
          seen.push(JSON.parse((event as MessageEvent<string>).data) as { state: string });
          if (seen.some((e) => e.state === 'to_review')) {
            source.close();
            resolve(seen);
          }
        });
      }),
  );

  // A pipeline-like upload through copy A, signed in there.
  const onA = await browser.newContext({ baseURL: a.url, storageState: NOBODY });
  const signedIn = await onA.request.post('/api/session', { data: { name: 'Dora', password: PASSWORD } });
  expect(signedIn.status()).toBe(200);
  await enqueuePdf(
    onA.request,
    { name: 'two-copies.pdf', buffer: Buffer.from(await invoicePdf({ invoiceNumber: 'TWO-COPIES-1' })) },
    INVOICE_MODEL_ID,
  );

  // B's browser heard A's changes: the document entered (processing), then its result (to_review).
  const events = await heard;
  expect(events.map((e) => e.state)).toEqual(expect.arrayContaining(['processing', 'to_review']));
  await expect(page.getByRole('link', { name: 'two-copies.pdf' })).toBeVisible();
  await onA.close();
  await context.close();
});
