import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { invoicePdfFile } from './support/upload-documents';
import {
  chooseFiles,
  extract,
  uploadsRow,
  openUploadForm,
  recordAttribute,
  uploadRow,
} from './support/upload-steps';
import { csrfHeader } from './support/team';

// The end-to-end reference service takes 6 POSTs per 2-second window (playwright.config.ts): ten files
// sent at once meet its 429s, which the uploads wait out for their Retry-After.
test('a 429 is waited out: every file of a large batch is enqueued, and the wait was shown', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const names = Array.from({ length: 10 }, (_, i) => `batch-${String(i + 1).padStart(2, '0')}.pdf`);
  const files = await Promise.all(
    names.map((name, i) =>
      invoicePdfFile(name, { invoiceNumber: `INV-B-${String(i + 1).padStart(4, '0')}` }),
    ),
  );

  await openUploadForm(page);
  await chooseFiles(page, files);
  const phases = await recordAttribute(page, 'data-phase');
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/v2/products/extraction/enqueue')) statuses.push(response.status());
  });
  // Use up the window's POST budget first, so that the batch meets a 429 at once however fast or
  // slow this machine sends it (the uploads alone may spread over more than one window).
  const token = await csrfHeader(page.request);
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await page.request.post('/api/v2/products/extraction/enqueue', {
      data: {},
      headers: token,
    });
    if (response.status() === 429) break;
  }
  await extract(page);

  // The wait is shown while it lasts, with its countdown.
  const waiting = page.locator('li[data-upload][data-phase="rate-limited"]').first();
  await expect(waiting).toContainText(/Rate limited by the service: retrying in \d+ s \(retry \d+\)/);
  await keepScreenshot(page, 'upload-rate-limited', { fullPage: true });

  for (const name of names)
    await expect(uploadRow(page, name)).toHaveAttribute('data-phase', 'enqueued', { timeout: 60_000 });
  expect(await phases()).toContain('rate-limited');
  expect(statuses).toContain(429);
  expect(statuses.filter((s) => s === 202)).toHaveLength(names.length);

  await page.getByRole('link', { name: 'Uploads', exact: true }).click();
  for (const name of names)
    await expect(uploadsRow(page, name)).toHaveAttribute('data-state', 'to_review', { timeout: 60_000 });
  await keepScreenshot(page, 'uploads-after-rate-limit', { fullPage: true });
});
