import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { openInvoiceReview, valueOf } from './support/review-journey';

test('a reload in the middle of a review keeps the draft, and the URL keeps the selected field', async ({
  page,
}) => {
  // The upload's job is followed before its page becomes the review (issue 21): more than a minute
  // on a machine busy with other journeys.
  test.setTimeout(120_000);
  const path = await openInvoiceReview(page);

  await valueOf(page, 'invoice_number').fill('INV-2024-0078');
  await page.getByRole('button', { name: 'Add an item to Reference Numbers' }).click();
  await valueOf(page, 'reference_numbers[0]').fill('PO-5512');
  await page.getByRole('button', { name: 'Remove Line Item 1' }).click();
  await valueOf(page, 'line_items[1].unit_price').fill('0.12');
  // The selected field is in the URL: a link opens the review on it.
  await expect(page).toHaveURL(/[?&]field=line_items%5B1%5D\.unit_price/);
  await expect(page.getByText('3 values corrected, 1 item added, 1 item removed')).toBeVisible();

  // The result was kept with the document: the reload shows it without asking for it again.
  const resultRequests: string[] = [];
  page.on('request', (request) => {
    // Either form of a result's address (`/results/{id}`, `/inferences/{id}`).
    if (/\/api\/v2\/.*\/(results|inferences)\//.test(new URL(request.url()).pathname))
      resultRequests.push(request.url());
  });
  await page.reload();
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0078', { timeout: 30_000 });
  expect(resultRequests, 'result requests after the reload').toEqual([]);
  await expect(valueOf(page, 'reference_numbers[0]')).toHaveValue('PO-5512');
  await expect(valueOf(page, 'line_items[1].unit_price')).toHaveValue('0.12');
  await expect(page.getByRole('button', { name: 'Restore Line Item 1' })).toBeVisible();
  await expect(page.getByText('3 values corrected, 1 item added, 1 item removed')).toBeVisible();
  await expect(page.locator('li[data-field-path="invoice_number"]')).toContainText('edited');
  await expect(page.locator('td[data-field-path="line_items[1].unit_price"]')).toHaveAttribute(
    'aria-current',
    'true',
  );
  await keepScreenshot(page, 'review-after-reload');

  // Revert one value, then everything.
  await page.getByRole('button', { name: 'Revert Invoice Number' }).click();
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0077');
  await page.getByRole('button', { name: 'Revert all' }).click();
  await page.getByRole('button', { name: 'Yes, revert all' }).click();
  await expect(page.getByText('No corrections yet')).toBeVisible();
  await expect(valueOf(page, 'reference_numbers[0]')).toHaveCount(0);

  // A link with ?field= opens the review on that field.
  await page.goto(`${path}?field=total_amount`);
  await expect(page.locator('li[data-field-path="total_amount"]')).toHaveAttribute('aria-current', 'true', {
    timeout: 30_000,
  });
});
