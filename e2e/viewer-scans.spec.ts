import { expect, test } from '@playwright/test';
import { valueOf } from './support/review-journey';
import { keepScreenshot } from './support/artifacts';
import { makeInvoicePdf } from './support/make-invoice';
import { rasterise, tiffOf } from './support/viewer-documents';
import { boxWithin, expectNear, inkUnder, openReview, pageSlot, polygonOf } from './support/viewer-review';

// OCR boxes are trimmed to the ink; pdf-lib's are the font's ascent and descent.
const OCR_TOLERANCE = 0.015;

test('a scanned picture is read by OCR and its polygons are drawn over the words', async ({ page }) => {
  const scan = await rasterise(await makeInvoicePdf(), 150);
  const png = scan.pages[0];
  if (!png) throw new Error('no page');
  await openReview(page, { name: 'scanned-invoice.png', mimeType: 'image/png', buffer: png });

  const slot = pageSlot(page, 0, 1);
  await expect(slot.locator('img')).toBeVisible();
  for (const [path, word] of [
    ['invoice_number', 'INV-2024-0042'],
    ['total_amount', '1,234.56'],
  ] as const) {
    const expected = scan.words[word];
    if (!expected) throw new Error(`no box for ${word}`);
    const polygon = polygonOf(slot, path);
    await polygon.scrollIntoViewIfNeeded();
    expectNear(await boxWithin(polygon, slot), expected, OCR_TOLERANCE, path);
    expect(await inkUnder(page, polygon), `ink of "${word}" under its polygon`).toBeGreaterThan(0.05);
  }
  await keepScreenshot(page, 'viewer-scanned-png');
});

test('every page of a TIFF is a page, with its polygons over its words', async ({ page }) => {
  const doc = await makeInvoicePdf([
    { label: 'Invoice number:', value: 'INV-2024-0777', y: 680, page: 0 },
    { label: 'Total:', value: '777.70', y: 500, page: 1 },
  ]);
  const scan = await rasterise(doc, 150);
  await openReview(page, {
    name: 'scanned-invoice.tiff',
    mimeType: 'image/tiff',
    buffer: await tiffOf(scan.pages),
  });

  await expect(page.getByRole('region', { name: /^Page \d of 2$/ })).toHaveCount(2);
  await valueOf(page, 'total_amount').click();
  const second = pageSlot(page, 1, 2);
  const polygon = polygonOf(second, 'total_amount');
  await expect(polygon).toBeInViewport();
  await expect(second).toHaveAttribute('data-rendered', 'true');
  const expected = scan.words['777.70'];
  if (!expected) throw new Error('no box for the total');
  expectNear(await boxWithin(polygon, second), expected, OCR_TOLERANCE, 'total_amount on TIFF page 2');
  expect(await inkUnder(page, polygon), 'ink of "777.70" under its polygon').toBeGreaterThan(0.05);
  await keepScreenshot(page, 'viewer-tiff-page-2');
});
