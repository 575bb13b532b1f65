import { expect, test } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { invoicePdfFile, invoicePngFile } from './support/upload-documents';
import {
  chooseFiles,
  extract,
  INVOICE_MODEL_NAME,
  openUploadForm,
  recordAttribute,
  selectedFile,
  throttleUploads,
  uploadRow,
  uploadsRow,
} from './support/upload-steps';

test('several files at once: three at a time with their progress, then every job processed in the list', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Three PDFs big enough (half a megabyte each) for their progress to show on a throttled link, and a
  // scanned PNG the service has to OCR.
  const files = [
    await invoicePdfFile('several-1.pdf', { invoiceNumber: 'INV-S-0001' }, 512 * 1024),
    await invoicePdfFile('several-2.pdf', { invoiceNumber: 'INV-S-0002' }, 512 * 1024),
    await invoicePdfFile('several-3.pdf', { invoiceNumber: 'INV-S-0003' }, 512 * 1024),
    await invoicePngFile('several-scan.png', { invoiceNumber: 'INV-S-0004' }),
  ];

  await openUploadForm(page);
  await chooseFiles(page, files);
  for (const file of files) await expect(selectedFile(page, file.name)).toHaveAttribute('data-check', 'ok');
  await expect(selectedFile(page, 'several-scan.png')).toContainText('PNG');
  await expect(page.getByText('4 files to send')).toBeVisible();
  await expectAccessible(page, 'upload-form-with-files');

  const phases = await recordAttribute(page, 'data-phase');
  const unthrottle = await throttleUploads(page, 400 * 1024);
  await extract(page);

  // Several files: the form stays, with one row per upload; at most three go up at once.
  await expect(uploadRow(page, 'several-1.pdf')).toBeVisible();
  await expect(page.getByText(/Uploading… [1-9]\d?%/).first()).toBeVisible();
  await expect(uploadRow(page, 'several-scan.png')).toHaveAttribute('data-phase', 'queued');
  await expect(uploadRow(page, 'several-scan.png')).toContainText('Waiting: 3 uploads at a time');
  await expect(page.locator('li[data-upload][data-phase="sending"]')).toHaveCount(3);
  await expect(uploadRow(page, 'several-1.pdf').locator('progress')).toBeVisible();
  await keepScreenshot(page, 'upload-progress', { fullPage: true });

  for (const file of files)
    await expect(uploadRow(page, file.name)).toHaveAttribute('data-phase', 'enqueued', { timeout: 60_000 });
  await unthrottle();
  expect(await phases()).toEqual(expect.arrayContaining(['queued', 'sending', 'enqueued']));

  // The team's Uploads list, from the server: each file, by its model's name, to review once read.
  await page.getByRole('link', { name: 'Follow them in Uploads' }).click();
  await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  for (const file of files)
    await expect(uploadsRow(page, file.name)).toHaveAttribute('data-state', 'to_review', { timeout: 60_000 });
  await expect(uploadsRow(page, 'several-1.pdf')).toContainText(INVOICE_MODEL_NAME);
  await expect(uploadsRow(page, 'several-1.pdf')).toContainText('You');
  await keepScreenshot(page, 'uploads-processed', { fullPage: true });
  await expectAccessible(page, 'uploads-list');

  // Each row opens its document's review.
  await uploadsRow(page, 'several-2.pdf').getByRole('link', { name: 'several-2.pdf' }).click();
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 30_000 });
});
