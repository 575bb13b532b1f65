import { expect, test } from '@playwright/test';
import { valueOf } from './support/review-journey';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { fourPageInvoice } from './support/viewer-documents';
import {
  boxWithin,
  expectNear,
  inkUnder,
  openReview,
  pageSlot,
  polygonOf,
  turned,
} from './support/viewer-review';

test('a multi-page PDF: a field on page 3 brought into view over its word, turned with the page, thumbnails', async ({
  page,
}) => {
  const doc = await fourPageInvoice();
  const total = doc.words['3,303.33'];
  if (!total) throw new Error('no box for the total');
  await openReview(page, {
    name: 'four-pages.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(doc.bytes),
  });

  // Every page has its place from the start; the toolbar says where the operator is.
  await expect(page.getByRole('region', { name: /^Page \d of 4$/ })).toHaveCount(4);
  const toolbar = page.getByRole('toolbar', { name: 'Document view' });
  await expect(toolbar).toContainText('Page 1 of 4');
  await keepScreenshot(page, 'viewer-page-1');

  // Selecting total_amount in the values jumps to page 3, its polygon in view and over its word.
  await valueOf(page, 'total_amount').click();
  const third = pageSlot(page, 2, 4);
  const polygon = polygonOf(third, 'total_amount');
  await expect(polygon).toBeInViewport();
  await expect(polygon).toHaveAttribute('data-selected', 'true');
  await expect(toolbar).toContainText('Page 3 of 4');
  await expect(third).toHaveAttribute('data-rendered', 'true');
  const upright = await boxWithin(polygon, third);
  expectNear(upright, total, 0.01, 'total_amount on page 3');
  expect(await inkUnder(page, polygon), 'ink of "3,303.33" under its polygon').toBeGreaterThan(0.05);
  await keepScreenshot(page, 'viewer-field-on-page-3');

  // A quarter turn turns the page box, bitmap and polygons together: the polygon stays on its word.
  await page.getByRole('button', { name: 'Rotate right' }).click();
  await valueOf(page, 'total_amount').click();
  await expect(polygon).toBeInViewport();
  await expect(third).toHaveAttribute('data-rendered', 'true');
  const landscape = await third.boundingBox();
  expect(landscape && landscape.width > landscape.height, 'page 3 shown landscape').toBe(true);
  // Exactly where the upright polygon goes when its page turns (to a pixel or so), and on the ink.
  expectNear(await boxWithin(polygon, third), turned(upright, 90), 0.003, 'total_amount turned 90°');
  expect(await inkUnder(page, polygon), 'ink under the turned polygon').toBeGreaterThan(0.05);
  await keepScreenshot(page, 'viewer-turned-90');
  await expectAccessible(page, 'viewer-turned');

  // Zoomed in, the polygon is still over its word.
  await page.getByRole('button', { name: 'Rotate left' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(toolbar).toContainText('125%');
  await valueOf(page, 'total_amount').click();
  await expect(polygon).toBeInViewport();
  await expect(third).toHaveAttribute('data-rendered', 'true');
  expectNear(await boxWithin(polygon, third), upright, 0.003, 'total_amount at 125%');
  await page.getByRole('button', { name: 'Fit width' }).click();
  await expect(toolbar).toContainText('100%');

  // Thumbnails and the page buttons move between pages.
  const strip = page.getByRole('navigation', { name: 'Pages' });
  await strip.getByRole('button', { name: 'Page 4', exact: true }).click();
  await expect(pageSlot(page, 3, 4)).toBeInViewport();
  await expect(strip.getByRole('button', { name: 'Page 4', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(toolbar).toContainText('Page 4 of 4');
  await toolbar.getByRole('button', { name: 'Previous page' }).click();
  await expect(toolbar).toContainText('Page 3 of 4');
  await expect(strip.getByRole('button', { name: 'Page 3', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await strip.getByRole('button', { name: 'Page 1', exact: true }).click();
  await expect(pageSlot(page, 0, 4)).toBeInViewport();
  await keepScreenshot(page, 'viewer-thumbnails');

  // Hover both ways, and a click on a polygon selects its field.
  const first = pageSlot(page, 0, 4);
  await valueOf(page, 'date').hover();
  await expect(polygonOf(first, 'date')).toHaveAttribute('data-hovered', 'true');
  await polygonOf(first, 'invoice_number').hover();
  await expect(polygonOf(first, 'invoice_number')).toHaveAttribute('data-hovered', 'true');
  await expect(polygonOf(first, 'date')).not.toHaveAttribute('data-hovered');
  await polygonOf(first, 'invoice_number').click();
  await expect(polygonOf(first, 'invoice_number')).toHaveAttribute('data-selected', 'true');
  await expect(page).toHaveURL(/[?&]field=invoice_number\b/);
  await expectAccessible(page, 'viewer');
});
