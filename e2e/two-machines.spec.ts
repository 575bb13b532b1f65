/**
 * Two machines, one database (issue 19): two app-server copies on one PostgreSQL, each with a data
 * directory of its own (as two machines have two disks), one shared upstream (this run's reference
 * service). A photographed invoice uploaded by an operator through copy A's upload page, and another
 * sent by a pipeline through A's gateway, are reviewed on copy B: B draws the page, the operator picks
 * a value from the words B's OCR read on the photo, confirms, and exports the confirmed documents from
 * B's Exports page. Once with the files in PostgreSQL (the default with DATABASE_URL), once in an
 * S3-compatible object store the test starts on 127.0.0.1 (FILE_STORAGE=s3).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  startPostgresCluster,
  type PostgresCluster,
} from '@extraction-review/test-kit/review/postgres-cluster';
import { s3Env, startS3Server, type S3Server } from '@extraction-review/test-kit/review/s3-server';
import { parseCsv, readDownload, valueOf } from './support/review-journey';
import { NOBODY, addOperator, signIn, uniqueName } from './support/team';
import { chooseFiles, extract, INVOICE_MODEL_ID, openUploadForm } from './support/upload-steps';
import { pageSlot } from './support/viewer-review';
import {
  addIntegration,
  createDatabase,
  filesUnder,
  photoInvoice,
  PICKED_DUE_DATE,
  sendThroughGateway,
  startTwoMachines,
  type TwoMachines,
} from './support/two-machines';
import { confirmThroughGate } from './support/confirm-through-gate';

const ADMIN = 'Dora';
/** Screenshots to look at, outside the repository (the test's own results keep copies too). */
const SHOTS = '/tmp/shots';
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

let cluster: PostgresCluster;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  cluster = await startPostgresCluster();
});

test.afterAll(async () => {
  await cluster?.stop();
});

type Deployed = Awaited<ReturnType<typeof deploy>>;

/** The copies on a database of their own, an admin and a pipeline's integration made there. */
async function deploy(database: string, storageEnv: Record<string, string>) {
  const integration = `pipeline-${database}`;
  const machines = await startTwoMachines(
    await createDatabase(cluster.url, database),
    storageEnv,
    async (storeEnv) =>
      (await Promise.all([addOperator(ADMIN, 'admin', storeEnv), addIntegration(integration, storeEnv)]))[1],
  );
  return { machines, key: machines.prepared, integration };
}

/** What each copy printed, kept with a failed test's results (why a document never came, say). */
async function attachOutputs(machines: TwoMachines): Promise<void> {
  if (test.info().status === test.info().expectedStatus) return;
  for (const [name, copy] of Object.entries({ a: machines.a, b: machines.b })) {
    const file = test.info().outputPath(`copy-${name}.log`);
    await writeFile(file, copy.output());
    await test.info().attach(`copy-${name}.log`, { path: file, contentType: 'text/plain' });
  }
}

/** B's review page as the operator sees it, at each viewport: kept with the results and in SHOTS. */
async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    // The page box follows its container: let a frame lay it out, then wait for its bitmap.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true');
    const file = `${SHOTS}/${name}-${viewport.width}x${viewport.height}.png`;
    await page.screenshot({ path: file });
    await test
      .info()
      .attach(`${name}-${viewport.width}x${viewport.height}`, { path: file, contentType: 'image/png' });
  }
}

/**
 * On B: the document A took in opens with its page drawn from the kept file, a value is picked from the
 * photo's OCR words, and the document is confirmed.
 */
async function reviewOnB(page: Page, fileName: string, shotName?: string): Promise<void> {
  const href = await page.getByRole('link', { name: fileName, exact: true }).getAttribute('href');
  // The link keeps the queue's filters in its address (issue 21): the document's id is its path's end.
  const id = new URL(href ?? '', 'http://link').pathname.split('/').at(-1) ?? '';
  expect(href, `${fileName}'s review link`).toMatch(/^\/review\/[^/?]+(\?.*)?$/);
  const fileAnswer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === `/api/review/documents/${id}/file`,
  );
  await page.goto(href ?? '');
  // The failure issue 19 describes: B has no copy of a file A kept on its own disk (404 "no kept file").
  expect((await fileAnswer).status(), `B serves the file of ${fileName}, taken in by A`).toBe(200);
  await page.getByRole('button', { name: 'Review this document' }).click();

  const first = page.locator('[data-page-index="0"]');
  await expect(first).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  await expect(pageSlot(page, 0, 1).locator('img')).toBeVisible();

  // A value printed under a label the extraction does not read: picked from the words B's OCR found.
  await expect(valueOf(page, 'due_date')).toHaveValue('');
  await valueOf(page, 'due_date').focus();
  await page.getByRole('button', { name: 'Pick from page' }).click();
  await expect(first.locator('.pick-layer')).toHaveAttribute('data-words', /[1-9]/, { timeout: 30_000 });
  await first
    .locator(`.pick-word[data-text*="${PICKED_DUE_DATE.slice(5)}"]`)
    .first()
    .click();
  await expect(valueOf(page, 'due_date')).toHaveValue(PICKED_DUE_DATE);
  await page.keyboard.press('Escape');
  await expect(page.getByText('All changes saved')).toBeVisible({ timeout: 15_000 });
  if (shotName !== undefined) await shoot(page, shotName);

  await confirmThroughGate(page);
  await expect(page.getByText(`Confirmed by ${ADMIN}`)).toBeVisible();
}

/** The journey itself, whatever the copies keep their files in. */
async function journey(
  browser: Browser,
  { machines, key, integration }: Deployed,
  label: string,
): Promise<void> {
  const batch = uniqueName(`two-machines-${label}`);
  const byOperator = await photoInvoice(`${batch}-operator.png`, 'INV-2024-0101');
  const byPipeline = await photoInvoice(`${batch}-pipeline.png`, 'INV-2024-0102');

  await test.step('copy A: an operator uploads from the upload page, a pipeline through the gateway', async () => {
    const onA = await browser.newContext({ baseURL: machines.a.url, storageState: NOBODY });
    const pageA = await onA.newPage();
    await signIn(pageA, ADMIN);
    await openUploadForm(pageA);
    await chooseFiles(pageA, [byOperator]);
    await extract(pageA);
    // The upload's one review (issue 21): the document's page once the upstream has read it, taken
    // by its uploader; released, so that it waits in the queue for copy B like the pipeline's.
    await expect(pageA).toHaveURL(/\/review\/[^/?]+/, { timeout: 90_000 });
    await pageA.getByRole('button', { name: 'Release' }).click();
    await expect(pageA).toHaveURL(/\/queue/);
    await sendThroughGateway(machines.a.url, key, byPipeline);
    await onA.close();
  });

  const onB = await browser.newContext({
    baseURL: machines.b.url,
    storageState: NOBODY,
    viewport: VIEWPORTS[0],
  });
  const page = await onB.newPage();
  await test.step('copy B: both wait in its queue once the upstream has read them', async () => {
    await signIn(page, ADMIN);
    await page.goto(`/queue?q=${batch}`);
    const rows = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: new RegExp(`^${batch}-`) }) });
    await expect(rows.filter({ hasText: /to review/i })).toHaveCount(2, { timeout: 90_000 });
  });

  for (const [file, who] of [
    [byOperator, 'operator'],
    [byPipeline, 'pipeline'],
  ] as const) {
    await test.step(`copy B: the ${who}'s document drawn, a value picked from its OCR words, confirmed`, async () => {
      await page.goto(`/queue?q=${batch}`);
      // Screenshots of one of them: the layout is the same for both.
      await reviewOnB(page, file.name, who === 'pipeline' ? `two-machines-${label}` : undefined);
    });
  }

  await test.step("copy B: the Exports page's CSV has both, with the picked value", async () => {
    await page.goto('/exports');
    await page.getByLabel('Model', { exact: true }).selectOption(INVOICE_MODEL_ID);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download' }).click();
    const [header = [], ...lines] = parseCsv(await readDownload(await download));
    const cell = (line: string[], column: string): string | undefined => {
      expect(header, `the export's columns`).toContain(column);
      return line[header.indexOf(column)];
    };
    const ours = lines
      .filter((line) => cell(line, 'file_name')?.startsWith(batch))
      .map((line) => ({
        file: cell(line, 'file_name'),
        due: cell(line, 'due_date'),
        by: cell(line, 'confirmed_by'),
        integration: cell(line, 'integration'),
      }));
    expect(ours).toEqual([
      expect.objectContaining({ file: byOperator.name, due: PICKED_DUE_DATE, by: ADMIN, integration: '' }),
      expect.objectContaining({ file: byPipeline.name, due: PICKED_DUE_DATE, by: ADMIN, integration }),
    ]);
  });
  await onB.close();

  await test.step("nothing of theirs on either copy's own disk: files and OCR words are shared", async () => {
    for (const dir of [machines.dataDirs.a, machines.dataDirs.b])
      expect(await filesUnder(dir), `kept in ${dir}`).toEqual([]);
  });
}

test.describe('files in PostgreSQL (FILE_STORAGE unset: database, the default with DATABASE_URL)', () => {
  let deployed: Deployed | undefined;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    deployed = await deploy('two_machines_database', {});
  });

  test.afterEach(async () => {
    if (deployed) await attachOutputs(deployed.machines);
  });

  test.afterAll(async () => {
    await deployed?.machines.stop();
  });

  test('uploaded through A by an operator and a pipeline, reviewed, picked, confirmed and exported on B', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    if (!deployed) throw new Error('copies not started');
    await journey(browser, deployed, 'database');
  });
});

test.describe('files in an S3-compatible object store (FILE_STORAGE=s3)', () => {
  let s3: S3Server | undefined;
  let deployed: Deployed | undefined;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    s3 = await startS3Server();
    // The SDK reads its region from AWS_REGION too; both copies get the same bucket and key pair.
    deployed = await deploy('two_machines_s3', { ...s3Env(s3), AWS_REGION: s3.region });
  });

  test.afterEach(async () => {
    if (deployed) await attachOutputs(deployed.machines);
  });

  test.afterAll(async () => {
    await deployed?.machines.stop();
    await s3?.stop();
  });

  test('uploaded through A by an operator and a pipeline, reviewed, picked, confirmed and exported on B', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    if (!deployed) throw new Error('copies not started');
    await journey(browser, deployed, 's3');
    await test.step('the bucket holds their files', async () => {
      if (!s3) throw new Error('no S3 server');
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: s3.region,
        forcePathStyle: true,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
      try {
        const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
        expect(listed.KeyCount ?? 0).toBeGreaterThanOrEqual(2);
      } finally {
        client.destroy();
      }
    });
  });
});
