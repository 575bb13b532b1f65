/**
 * The team's Uploads follow the queue live (issue 21): a colleague's browser with "Everyone's" open
 * sees an upload appear and move from processing to "To review" without being reloaded, as the app
 * server's queue events (pushed when the service's webhook or the job follower brings the result)
 * refresh the list. The uploader's own job page meanwhile becomes the document's review.
 */
import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { addOperator, NOBODY, signIn, uniqueName } from './support/team';
import { invoicePdfFile } from './support/upload-documents';
import { chooseFiles, extract, openUploadForm, uploadRow, uploadsRow } from './support/upload-steps';

test('a colleague’s Uploads list shows a new upload and its result coming in, without a reload', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const colleague = uniqueName('Colleague');
  await addOperator(colleague, 'operator');
  const context = await browser.newContext({ storageState: NOBODY });
  const theirs = await context.newPage();
  await signIn(theirs, colleague);
  const events = theirs.waitForRequest((request) => request.url().endsWith('/api/events'));
  await theirs.goto('/uploads?who=everyone');
  await expect(theirs.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  await events;
  const reloads: string[] = [];
  theirs.on('framenavigated', (frame) => {
    if (frame === theirs.mainFrame()) reloads.push(frame.url());
  });

  const files = [
    await invoicePdfFile(`${uniqueName('live-1')}.pdf`, { invoiceNumber: 'INV-L-0001' }),
    await invoicePdfFile(`${uniqueName('live-2')}.pdf`, { invoiceNumber: 'INV-L-0002' }),
  ];
  await openUploadForm(page);
  await chooseFiles(page, files);
  await extract(page);
  for (const file of files)
    await expect(uploadRow(page, file.name)).toHaveAttribute('data-phase', 'enqueued', { timeout: 30_000 });

  for (const file of files) {
    const row = uploadsRow(theirs, file.name);
    await expect(row).toBeVisible({ timeout: 30_000 });
    await expect(row).toHaveAttribute('data-state', 'to_review', { timeout: 60_000 });
    await expect(row).toContainText('e2e-operator');
  }
  expect(reloads, 'the colleague’s page was not reloaded').toEqual([]);
  await keepScreenshot(theirs, 'uploads-live', { fullPage: true });
  await context.close();
});
