/**
 * An admin works the queue in bulk (issue 21): assigns a document of their own batch to an operator,
 * who finds it with the queue's "Assigned: to me" filter in their own browser; ticks two documents, sets their
 * priority, rejects one with a reason, deletes the other after the confirmation, and sorts the list
 * by a column (the order kept in the address, `aria-sort` on the header). Other journeys share the
 * server: everything here is filtered to this journey's batch. At 1280×720.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { addOperator, enqueuePdf, NOBODY, signIn, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';

async function listBatch(request: APIRequestContext, batch: string) {
  const response = await request.get(`/api/review/documents?q=${encodeURIComponent(batch)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { documents: { fileName: string; state: string }[] }).documents;
}

const rowOf = (page: Page, fileName: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: fileName }) });

async function operatorPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ storageState: NOBODY, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await signIn(page, name);
  return page;
}

const fileNames = async (page: Page) => page.getByRole('table').getByRole('rowheader').allTextContents();

test('an admin assigns, sets priorities, rejects and deletes documents in bulk, and sorts the queue', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const operator = uniqueName('Olga');
  await addOperator(operator, 'operator');
  await page.setViewportSize({ width: 1280, height: 720 });
  const batch = uniqueName('bulk');
  const names = [1, 2, 3].map((n) => `${batch}-${n}.pdf`);
  for (const [i, name] of names.entries()) {
    const pdf = await invoicePdf({ invoiceNumber: `B-${i + 1}000`, total: `${i + 1}0.00` });
    await enqueuePdf(page.request, { name, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
  }
  await expect(async () => {
    const ours = await listBatch(page.request, batch);
    expect(ours.filter((d) => d.state === 'to_review')).toHaveLength(3);
  }).toPass({ timeout: 60_000 });

  await page.goto(`/queue?q=${encodeURIComponent(batch)}`);
  await expect(rowOf(page, names[0] ?? '')).toBeVisible({ timeout: 20_000 });

  // One assigned to the operator: it stays waiting, and says whose it is.
  await page.getByRole('checkbox', { name: `Select ${names[2]}` }).check();
  const assignBar = page.getByRole('region', { name: 'Bulk actions' });
  await assignBar.getByLabel('Assign to').selectOption({ label: operator });
  await assignBar.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Assigned 1 document.' })).toBeVisible();
  await expect(rowOf(page, names[2] ?? '')).toContainText(`Assigned to ${operator}`);
  await expect(rowOf(page, names[2] ?? '')).toContainText(/to review/i);
  await rowOf(page, names[2] ?? '').scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'queue-assigned-row-1280');

  // The operator, in their own browser, finds it with the filter "Assigned: to me".
  const olga = await operatorPage(browser, operator);
  await olga.goto(`/queue?q=${encodeURIComponent(batch)}`);
  await expect(rowOf(olga, names[0] ?? '')).toBeVisible({ timeout: 20_000 });
  await olga.getByRole('button', { name: /More filters/ }).click();
  await olga.getByLabel('Assigned').selectOption({ label: 'To me' });
  await expect(olga).toHaveURL(/[?&]assigned=me(&|$)/);
  await expect.poll(() => fileNames(olga)).toEqual([names[2]]);
  await expect(rowOf(olga, names[2] ?? '')).toContainText('Assigned to you');
  await keepScreenshot(olga, 'queue-filter-to-me-1280');
  await olga.setViewportSize({ width: 1440, height: 900 });
  await keepScreenshot(olga, 'queue-filter-to-me-1440');
  await olga.context().close();

  // Two ticked: the bar says how many.
  await page.getByRole('checkbox', { name: `Select ${names[0]}` }).check();
  await page.getByRole('checkbox', { name: `Select ${names[1]}` }).check();
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar.getByText('2 documents selected')).toBeVisible();
  await bar.scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'queue-bulk-bar-1280');

  // Their priority, at once.
  await bar.getByLabel('Priority (higher first)').fill('7');
  await bar.getByRole('button', { name: 'Set priority' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Priority set on 2 documents.' })).toBeVisible();
  await expect(rowOf(page, names[0] ?? '').getByRole('cell', { name: '7', exact: true })).toBeVisible();
  await expect(rowOf(page, names[1] ?? '').getByRole('cell', { name: '7', exact: true })).toBeVisible();

  // One rejected, with the reason, which its row then shows.
  await page.getByRole('checkbox', { name: `Select ${names[0]}` }).check();
  await bar.getByRole('button', { name: 'Reject…' }).click();
  await expect(bar.getByRole('button', { name: 'Reject 1 document' })).toBeDisabled();
  await bar.getByLabel(/Why are they rejected/).fill('Sent by mistake');
  await bar.getByRole('button', { name: 'Reject 1 document' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Rejected 1 document.' })).toBeVisible();
  await expect(rowOf(page, names[0] ?? '')).toContainText('Sent by mistake');
  await expect(rowOf(page, names[0] ?? '')).toContainText(/rejected/i);

  // One deleted, after a confirmation that says how many.
  await page.getByRole('checkbox', { name: `Select ${names[1]}` }).check();
  await bar.getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Delete 1 document?');
  await keepScreenshot(page, 'queue-delete-1280');
  await confirm.getByRole('button', { name: 'Delete 1 document' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deleted 1 document.' })).toBeVisible();
  await expect(rowOf(page, names[1] ?? '')).toHaveCount(0);
  expect((await listBatch(page.request, batch)).map((d) => d.fileName).sort()).toEqual([names[0], names[2]]);

  // Sorted by file name, then the other way: the header says so and the address keeps it.
  const file = page.getByRole('columnheader', { name: /File/ });
  await file.getByRole('button').click();
  await expect(file).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expect.poll(() => fileNames(page)).toEqual([names[0], names[2]]);
  await file.getByRole('button').click();
  await expect(file).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
  await expect.poll(() => fileNames(page)).toEqual([names[2], names[0]]);
  await page.reload();
  await expect(page.getByRole('columnheader', { name: /File/ })).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => fileNames(page)).toEqual([names[2], names[0]]);
  await page.getByRole('checkbox', { name: 'Select every document of this page' }).check();
  await expect(bar.getByText('2 documents selected')).toBeVisible();
  await expectAccessible(page, 'queue-bulk');
  await keepScreenshot(page, 'queue-sorted-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await keepScreenshot(page, 'queue-sorted-1440');
});
