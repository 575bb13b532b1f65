/**
 * "Where time goes", end to end: three invoices go through the real upload route and the reference
 * service; the admin corrects the same field of each and confirms them (two through the API as the
 * review page sends it, the last one in the review page itself); the dashboard then shows that field
 * as the one corrected most this week, with the last correction's before → after, its figures in a
 * table under the chart, and exports the table as CSV.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { csrfHeader, enqueuePdf, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';
import { confirmThroughGate } from './support/confirm-through-gate';

const FIELD = 'total_amount';

/** Takes the document, corrects FIELD and confirms it, as the review page's requests do. */
async function correctAndConfirm(request: APIRequestContext, id: string, value: string): Promise<void> {
  const headers = await csrfHeader(request);
  const taken = await request.post(`/api/review/documents/${id}/take`, { headers });
  expect(taken.status()).toBe(200);
  let { version } = ((await taken.json()) as { document: { version: number } }).document;
  const saved = await request.put(`/api/review/documents/${id}/corrections`, {
    headers,
    data: { version, corrections: [{ path: FIELD, value }] },
  });
  expect(saved.status()).toBe(200);
  ({ version } = ((await saved.json()) as { document: { version: number } }).document);
  const confirmed = await request.post(`/api/review/documents/${id}/confirm`, { headers, data: { version } });
  expect(confirmed.status()).toBe(200);
}

test('the field corrected most this week tops where time goes, with its before → after', async ({ page }) => {
  test.setTimeout(150_000);
  const batch = uniqueName('time');
  for (const n of [1, 2, 3]) {
    const pdf = await invoicePdf({ invoiceNumber: `WTG-${n}`, total: `${n}00.00` });
    await enqueuePdf(page.request, { name: `${batch}-${n}.pdf`, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
  }
  let ids: { id: string; fileName: string }[] = [];
  await expect(async () => {
    const listed = await page.request.get(`/api/review/documents?q=${batch}&state=to_review`);
    ids = ((await listed.json()) as { documents: { id: string; fileName: string }[] }).documents;
    expect(ids).toHaveLength(3);
  }).toPass({ timeout: 60_000 });
  ids.sort((a, b) => a.fileName.localeCompare(b.fileName));
  const [first, second, last] = ids;
  if (first === undefined || second === undefined || last === undefined) throw new Error('three documents');

  await correctAndConfirm(page.request, first.id, '111.11');
  await correctAndConfirm(page.request, second.id, '222.22');

  // The last one in the review page: corrected, saved, confirmed.
  await page.goto(`/review/${last.id}`);
  await page.getByRole('button', { name: 'Review this document' }).click();
  await expect(valueOf(page, FIELD)).toHaveValue('300', { timeout: 30_000 });
  await valueOf(page, FIELD).fill('333.33');
  await expect(page.getByText('All changes saved')).toBeVisible({ timeout: 15_000 });
  await confirmThroughGate(page);
  await expect(page.getByText(/confirmed/i).first()).toBeVisible();

  // The admin opens the dashboard from the header.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('menuitem', { name: 'Where time goes' }).click();
  await expect(page.getByRole('heading', { name: 'Where time goes', level: 1 })).toBeVisible();
  await page.getByLabel('Period').selectOption('this-week');
  await page.getByLabel('Model').selectOption(INVOICE_MODEL_ID);

  const summary = page.getByRole('term').filter({ hasText: 'Corrected most' }).locator('xpath=..');
  await expect(summary).toContainText(`${FIELD}, in `);
  const fields = page.getByRole('table', { name: 'Fields corrected most' });
  await expect(fields.getByRole('row').nth(1)).toContainText(FIELD);
  await expect(page.getByRole('img', { name: new RegExp(`^${FIELD} was corrected most`) })).toBeVisible();

  // The latest example first: this one, its value as extracted and as confirmed, as text.
  const example = page
    .getByRole('table', { name: 'Examples of corrections, before and after' })
    .getByRole('row')
    .nth(1);
  await expect(example).toContainText(FIELD);
  await expect(example).toContainText('300');
  await expect(example).toContainText('333.33');
  await expect(example.getByRole('link', { name: `${batch}-3.pdf` })).toBeVisible();
  await keepScreenshot(page, 'where-time-goes', { fullPage: true });
  await expectAccessible(page, 'where-time-goes');

  // Each chart exports its figures.
  const csvHref = await page
    .getByRole('link', { name: 'Export CSV of fields corrected most' })
    .getAttribute('href');
  expect(csvHref).toMatch(/^\/api\/review\/analytics\?/);
  const csv = await page.request.get(csvHref ?? '');
  expect(csv.status()).toBe(200);
  const [header, top] = (await csv.text()).replace(/^\uFEFF/, '').split('\r\n');
  expect(header).toBe('field,documents,values,share_of_documents,documents_confirmed_by_operator');
  expect(top).toMatch(new RegExp(`^${FIELD},[3-9]`));
});
