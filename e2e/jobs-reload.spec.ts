/**
 * The Uploads list is the team's, kept by the server (issue 21): what was sent survives a reload and
 * reads the same in a fresh browser (no "No jobs yet" for a colleague); the old `/jobs` address
 * leads there.
 */
import { expect, test } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { addOperator, NOBODY, signIn, uniqueName } from './support/team';
import { invoicePdfFile } from './support/upload-documents';
import { chooseFiles, extract, openUploadForm, uploadRow, uploadsRow } from './support/upload-steps';

test('the uploads list survives a reload and reads the same from another browser', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const files = [
    await invoicePdfFile(`${uniqueName('keep-me')}.pdf`, { invoiceNumber: 'INV-K-0001' }),
    await invoicePdfFile(`${uniqueName('keep-me-too')}.pdf`, { invoiceNumber: 'INV-K-0002' }),
  ];
  await openUploadForm(page);
  await page.getByLabel('Alias').fill('PO-7781');
  await chooseFiles(page, files);
  await extract(page);
  for (const file of files)
    await expect(uploadRow(page, file.name)).toHaveAttribute('data-phase', 'enqueued', { timeout: 30_000 });

  // The old address of the list leads to the team's Uploads.
  await page.goto('/jobs');
  await expect(page).toHaveURL(/\/uploads$/);
  await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  for (const file of files) {
    const row = uploadsRow(page, file.name);
    await expect(row).toHaveAttribute('data-state', 'to_review', { timeout: 60_000 });
    await expect(row).toContainText('PO-7781');
    await expect(row).toContainText('You');
  }

  await page.reload();
  for (const file of files)
    await expect(uploadsRow(page, file.name)).toHaveAttribute('data-state', 'to_review');
  await keepScreenshot(page, 'uploads-after-reload', { fullPage: true });
  await expectAccessible(page, 'uploads-after-reload');

  // A colleague's fresh browser: nothing of theirs, everyone's has both, sent by this run's operator.
  const colleague = uniqueName('Colleague');
  await addOperator(colleague, 'operator');
  const context = await browser.newContext({ storageState: NOBODY });
  const theirs = await context.newPage();
  await signIn(theirs, colleague);
  await theirs.goto('/uploads');
  await expect(theirs.getByText(/You have not uploaded anything yet/)).toBeVisible();
  await expectAccessible(theirs, 'uploads-empty');
  await theirs.getByRole('radio', { name: 'Everyone’s' }).check({ force: true });
  for (const file of files) await expect(uploadsRow(theirs, file.name)).toContainText('e2e-operator');
  await context.close();
});
