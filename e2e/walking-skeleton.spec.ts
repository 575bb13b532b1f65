import { expect, test, type Page } from '@playwright/test';
import { valueOf } from './support/review-journey';
import { polygonOf } from './support/viewer-review';
import { makeInvoicePdf } from './support/make-invoice';

test('a PDF goes from the browser to its values drawn over the words they came from', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const doc = await makeInvoicePdf();

  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New extraction' })).toBeVisible();
  await expect(page.getByLabel('Model')).toHaveValue(/.+/);
  await page.getByLabel('Document').setInputFiles({
    name: 'invoice-0042.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(doc.bytes),
  });
  await page.getByRole('button', { name: 'Extract' }).click();

  // The job is followed until it is processed, then its page becomes the document's one review.
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  await expect(field(page, 'invoice_number')).toHaveValue('INV-2024-0042', { timeout: 30_000 });
  await expect(field(page, 'date')).toHaveValue('2024-03-14');
  await expect(field(page, 'total_amount')).toHaveValue('1234.56');

  const firstPage = page.locator('[data-page-index="0"]');
  await expect(firstPage).toHaveAttribute('data-rendered', 'true');
  await page.screenshot({ path: test.info().outputPath('review.png'), fullPage: true });

  // Each value's polygon lies over the word in the generated PDF.
  const pageBox = await firstPage.locator('canvas').boundingBox();
  if (!pageBox) throw new Error('The page canvas has no box');
  for (const [name, word] of [
    ['invoice_number', doc.words['INV-2024-0042']],
    ['date', doc.words['2024-03-14']],
    ['total_amount', doc.words['1,234.56']],
  ] as const) {
    if (!word) throw new Error(`No expected box for ${name}`);
    const polygon = polygonOf(page, name);
    const box = await polygon.boundingBox();
    if (!box) throw new Error(`No polygon box for ${name}`);
    const actual = {
      x0: (box.x - pageBox.x) / pageBox.width,
      x1: (box.x + box.width - pageBox.x) / pageBox.width,
      y0: (box.y - pageBox.y) / pageBox.height,
      y1: (box.y + box.height - pageBox.y) / pageBox.height,
    };
    // Within 1% of the page, on every edge.
    expect(Math.abs(actual.x0 - word.x0), `${name} left edge`).toBeLessThan(0.01);
    expect(Math.abs(actual.x1 - word.x1), `${name} right edge`).toBeLessThan(0.01);
    expect(Math.abs(actual.y0 - word.y0), `${name} top edge`).toBeLessThan(0.01);
    expect(Math.abs(actual.y1 - word.y1), `${name} bottom edge`).toBeLessThan(0.01);
  }

  // Hovering a field highlights its polygon, and hovering a polygon highlights its field.
  await field(page, 'date').hover();
  await expect(polygonOf(page, 'date')).toHaveAttribute('data-active', 'true');
  // Named for the operator by the field's title, the value and its confidence.
  await expect(polygonOf(page, 'total_amount')).toHaveAccessibleName(/^Total amount: /i);
  await polygonOf(page, 'total_amount').hover();
  await expect(page.locator('li[data-field-path="total_amount"]')).toHaveAttribute('data-active', 'true');

  // Nothing left the machine: every request went to the app's own origin.
  const origin = new URL(page.url()).origin;
  expect(
    requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:')),
  ).toEqual([]);
});

/** A field's value control, by its path. */
function field(page: Page, path: string) {
  return valueOf(page, path);
}
