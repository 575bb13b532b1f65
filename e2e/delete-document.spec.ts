/**
 * An admin deletes a document from its review page (issue 22): "Delete document…" among the admin
 * controls, a dialog naming the file, then back to the queue, which says so and no longer lists it.
 * The model's Retention section is shown on its Rules page. At 1280×720 and 1440×900.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { enqueuePdf, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';
import { keepScreenshot } from './support/artifacts';

async function listBatch(request: APIRequestContext, batch: string) {
  const response = await request.get(`/api/review/documents?q=${encodeURIComponent(batch)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { documents: { id: string; fileName: string; state: string }[] })
    .documents;
}

for (const size of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test(`an admin deletes a document from its review page (${String(size.width)})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(size);
    const batch = uniqueName('delete');
    const name = `${batch}.pdf`;
    const pdf = await invoicePdf({ invoiceNumber: 'D-1000', total: '10.00' });
    await enqueuePdf(page.request, { name, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
    let id = '';
    await expect(async () => {
      const ours = (await listBatch(page.request, batch)).filter((d) => d.state === 'to_review');
      expect(ours).toHaveLength(1);
      id = ours[0]?.id ?? '';
    }).toPass({ timeout: 60_000 });

    await page.goto(`/review/${id}`);
    await page.getByRole('tab', { name: 'Admin' }).click();
    await page.getByRole('button', { name: 'Delete document…' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete “${name}”?` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await keepScreenshot(page, `delete-dialog-${String(size.width)}`);
    await dialog.getByRole('button', { name: 'Delete for good' }).click();

    await expect(page).toHaveURL(/\/queue$/);
    await expect(page.getByRole('status').filter({ hasText: `“${name}” was deleted` })).toBeVisible();
    expect(await listBatch(page.request, batch)).toEqual([]);
    expect((await page.request.get(`/api/review/documents/${id}`)).status()).toBe(404);
    await keepScreenshot(page, `deleted-notice-${String(size.width)}`);

    await page.goto(`/rules/v2/${encodeURIComponent(INVOICE_MODEL_ID)}`);
    const retention = page.getByRole('group', { name: 'Retention' });
    await expect(retention).toBeVisible({ timeout: 20_000 });
    await retention.scrollIntoViewIfNeeded();
    await keepScreenshot(page, `retention-section-${String(size.width)}`);
  });
}
