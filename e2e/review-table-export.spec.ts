import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { polygonOf } from './support/viewer-review';
import { REVIEW_INVOICE } from './support/review-invoice';
import { openInvoiceReview, parseCsv, readDownload, valueOf } from './support/review-journey';

test('a table cell edited, a row added and one removed, then exported as CSV and JSON', async ({ page }) => {
  await openInvoiceReview(page);

  // The line items are a table: one row per item, one labelled control per cell, linked to its polygon.
  const table = page.getByRole('table', { name: 'Line Items' });
  await expect(table).toBeVisible();
  await expect(valueOf(page, 'line_items[1].description')).toHaveValue(
    REVIEW_INVOICE.rows[1]?.description ?? '',
  );
  await valueOf(page, 'line_items[0].quantity').hover();
  await expect(polygonOf(page, 'line_items[0].quantity')).toHaveAttribute('data-active', 'true');
  // And the other way: a polygon hovered lights up its cell.
  await polygonOf(page, 'line_items[2].unit_price').hover();
  await expect(page.locator('td[data-field-path="line_items[2].unit_price"]')).toHaveAttribute(
    'data-active',
    'true',
  );

  // Correct a cell; the row and the count say it is edited.
  const cell = valueOf(page, 'line_items[1].description');
  await cell.fill('Hex nuts M8, zinc plated');
  await expect(page.getByRole('button', { name: 'Revert Description, Line Item 2' })).toBeVisible();
  await expect(page.getByText('1 value corrected')).toBeVisible();

  // Add a row and fill it; remove the third extracted row.
  await page.getByRole('button', { name: 'Add a row to Line Items' }).click();
  await expect(valueOf(page, 'line_items[3].description')).toBeFocused();
  await valueOf(page, 'line_items[3].description').fill('Delivery "express"');
  await valueOf(page, 'line_items[3].total_price').fill('9.90');
  await page.getByRole('button', { name: 'Remove Line Item 3' }).click();
  await expect(page.getByRole('button', { name: 'Restore Line Item 3' })).toBeVisible();
  await expect(page.getByText('3 values corrected, 1 item added, 1 item removed')).toBeVisible();
  await table.scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'review-table-edited');

  // CSV: one row per table row, the document's values repeated on each.
  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csvFile = await csvDownload;
  expect(csvFile.suggestedFilename()).toBe('invoice-0077-corrected.csv');
  const csv = await readDownload(csvFile);
  expect(csv.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(csv);
  const column = (name: string) => {
    const index = header?.indexOf(name) ?? -1;
    expect(index, `column ${name}`).toBeGreaterThanOrEqual(0);
    return rows.map((row) => row[index]);
  };
  expect(rows).toHaveLength(3);
  expect(column('list')).toEqual(['line_items', 'line_items', 'line_items']);
  expect(column('item')).toEqual(['1', '2', '3']);
  expect(column('invoice_number')).toEqual(Array(3).fill(REVIEW_INVOICE.invoiceNumber));
  expect(column('total_amount')).toEqual(['47.5', '47.5', '47.5']);
  expect(column('line_items.description')).toEqual([
    'Steel bolts M8',
    'Hex nuts M8, zinc plated',
    'Delivery "express"',
  ]);
  expect(column('line_items.quantity')).toEqual(['100', '200', '']);
  expect(column('line_items.total_price')).toEqual(['25', '20', '9.9']);
  // The comma and the quotes were quoted in the file itself.
  expect(csv).toContain('"Hex nuts M8, zinc plated"');
  expect(csv).toContain('"Delivery ""express"""');

  // JSON: the result's fields with the corrections, in the API's shape.
  const jsonDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const jsonFile = await jsonDownload;
  expect(jsonFile.suggestedFilename()).toBe('invoice-0077-corrected.json');
  const exported = JSON.parse(await readDownload(jsonFile)) as {
    fields: Record<
      string,
      { value?: unknown; items?: { fields: Record<string, { value: unknown; locations: unknown[] }> }[] }
    >;
  };
  expect(exported.fields.invoice_number?.value).toBe(REVIEW_INVOICE.invoiceNumber);
  const items = exported.fields.line_items?.items ?? [];
  expect(items.map((i) => i.fields.description?.value)).toEqual([
    'Steel bolts M8',
    'Hex nuts M8, zinc plated',
    'Delivery "express"',
  ]);
  expect(items[2]?.fields.total_price).toEqual({ value: 9.9, locations: [], confidence: null });
  expect(items[0]?.fields.quantity?.value).toBe(100);
  expect(items[0]?.fields.quantity?.locations).toHaveLength(1);
});
