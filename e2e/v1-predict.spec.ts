/**
 * v1 predictions sent from the upload form to the embedded reference service's v1 API (no request
 * mocked): an async one followed through the queue, a sync one answered with its document; both
 * each becomes its kept document's one review (`/review/{id}`), listed in the team's Uploads.
 */
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { makeInvoicePdf } from './support/make-invoice';
import { valueOf } from './support/review-journey';
import { uploadsRow } from './support/upload-steps';
import { rasterise } from './support/viewer-documents';
import { boxWithin, expectNear, inkUnder, pageSlot, polygonOf } from './support/viewer-review';

async function chooseV1(page: Page, mode: 'Asynchronous' | 'Synchronous') {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New extraction' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('radio', { name: 'Prediction API (v1)' }).check();
  await expect(page.getByLabel('Account')).toHaveValue('mindee');
  await expect(page.getByLabel('Product name')).toHaveValue('invoices');
  await expect(page.getByLabel('Version')).toHaveValue('4');
  await page.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
}

test('an async v1 prediction of a photo taken sideways: followed, then reviewed upright with polygons on their words', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const scan = await rasterise(await makeInvoicePdf(), 150);
  const upright = scan.pages[0];
  if (!upright) throw new Error('no page');
  // The page photographed a quarter turn clockwise: the service finds it must turn it back 270°.
  const photo = await sharp(upright).rotate(90).jpeg({ quality: 90 }).toBuffer();

  await chooseV1(page, 'Asynchronous');
  // The service's own products are offered (the reference service's list), with the modes each takes.
  await expect(page.getByText('Products of this service:')).toContainText(
    'acme-corp/purchase_orders/v1 (async only)',
  );
  await page.getByLabel('Document', { exact: true }).setInputFiles({
    name: 'sideways-invoice.jpg',
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  await expect(page.locator('li[data-file="sideways-invoice.jpg"]')).toHaveAttribute('data-check', 'ok');
  await expectAccessible(page, 'upload-form-v1');
  await keepScreenshot(page, 'upload-form-v1', { fullPage: true });
  await page.getByRole('button', { name: 'Extract', exact: true }).click();

  await expect(page).toHaveURL(/\/jobs\/v1\/[^/?]+$/, { timeout: 30_000 });
  // Followed, then its page becomes the kept document's one review.
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  const slot = pageSlot(page, 0, 1);
  await expect(slot).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });

  // Shown upright: the page as displayed (polygons hidden) looks like the upright raster...
  const shown = await slot.screenshot({ style: '.field-overlay, .field-highlight { visibility: hidden; }' });
  const small = (png: Buffer) => sharp(png).greyscale().resize(48, 48, { fit: 'fill' }).raw().toBuffer();
  const [a, b] = await Promise.all([small(shown), small(upright)]);
  const difference = a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] ?? 0)), 0) / a.length;
  expect(difference, 'the sideways photo shown upright').toBeLessThan(25);
  // ...the photo was read upright (the service turns it before OCR), so its text is right...
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0042');
  // ...and the total's polygon is on its word there, over ink.
  const expected = scan.words['1,234.56'];
  if (!expected) throw new Error('no box for the total');
  const total = polygonOf(slot, 'total_amount');
  await total.scrollIntoViewIfNeeded();
  expectNear(await boxWithin(total, slot), expected, 0.02, 'total_amount');
  expect(await inkUnder(page, total), 'ink of "1,234.56" under its polygon').toBeGreaterThan(0.05);
  await keepScreenshot(page, 'v1-async-review-upright');
  await expectAccessible(page, 'v1-job-review');

  await page.getByRole('link', { name: 'Uploads', exact: true }).click();
  const row = uploadsRow(page, 'sideways-invoice.jpg');
  await expect(row).toHaveAttribute('data-state', /to_review|in_review/, { timeout: 30_000 });
  // The product by its name, its key on hover.
  await expect(row).toContainText('Invoices v4');
  await expectAccessible(page, 'uploads-v1');
});

test('a sync v1 prediction of a PDF opens its document’s review, kept across a reload', async ({ page }) => {
  // Its page becomes the kept document's review (issue 21): more than a minute on a busy machine.
  test.setTimeout(120_000);
  const doc = await makeInvoicePdf([
    { label: 'Invoice number:', value: 'INV-2024-0515', y: 680 },
    { label: 'Date:', value: '2024-05-15', y: 656 },
    { label: 'Total:', value: '515.15', y: 300 },
  ]);
  await chooseV1(page, 'Synchronous');
  await page.getByLabel('Document', { exact: true }).setInputFiles({
    // An accented name, as a French user's file is called: shown as sent, never garbled.
    name: 'facture-synchrone-été.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(doc.bytes),
  });
  await page.getByRole('button', { name: 'Extract', exact: true }).click();

  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0515', { timeout: 30_000 });
  // The name the service echoes (document.name), as the file was called (it was garbled once).
  await page.getByRole('tab', { name: 'Details' }).click();
  await expect(page.getByRole('region', { name: 'File' })).toContainText('facture-synchrone-été.pdf');
  await page.getByRole('tab', { name: 'Values' }).click();
  const slot = pageSlot(page, 0, 1);
  await expect(slot).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  const expected = doc.words['515.15'];
  if (!expected) throw new Error('no box for the total');
  expectNear(await boxWithin(polygonOf(slot, 'total_amount'), slot), expected, 0.02, 'total_amount');

  // After a reload the review is the server's document again.
  await page.reload();
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0515', { timeout: 30_000 });
  await keepScreenshot(page, 'v1-sync-review');

  await page.getByRole('link', { name: 'Uploads', exact: true }).click();
  const row = uploadsRow(page, 'facture-synchrone-été.pdf');
  await expect(row).toHaveAttribute('data-state', /to_review|in_review/);
  await expect(row).toContainText('Invoices v4');
});
