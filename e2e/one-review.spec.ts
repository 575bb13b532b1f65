/**
 * One review (issue 21): a document uploaded from the app is a server-kept document with one review.
 * Its job's page becomes that review once the result is in (`/review/{id}`, taken for the uploader,
 * the decision bar there); a correction is saved to the server and the document confirmed; a second
 * operator, in a browser of their own, sees it confirmed with the correction, in the queue and in
 * the team's Uploads. The same file uploaded again is marked a duplicate of the first.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { addOperator, NOBODY, signIn, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { openUploadForm } from './support/upload-steps';

async function operatorPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ storageState: NOBODY, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await signIn(page, name);
  return page;
}

async function upload(page: Page, name: string, pdf: Uint8Array): Promise<void> {
  await openUploadForm(page);
  await page.getByLabel('Document', { exact: true }).setInputFiles({
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.from(pdf),
  });
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
}

test('an upload has one review: corrected and confirmed there, seen so by a colleague', async ({
  browser,
}) => {
  // Two uploads, two browsers, on a machine shared with other journeys.
  test.setTimeout(300_000);
  const alice = uniqueName('Alice');
  const bob = uniqueName('Bob');
  await addOperator(alice, 'operator');
  await addOperator(bob, 'operator');
  const file = `${uniqueName('one-review')}.pdf`;
  const pdf = await invoicePdf({ invoiceNumber: 'INV-ONE-0001', total: '2608.20' });

  // Alice uploads: the job's page follows the job, then becomes the document's review, hers to edit.
  const alicePage = await operatorPage(browser, alice);
  await upload(alicePage, file, pdf);
  await expect(alicePage).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const documentId = new URL(alicePage.url()).pathname.split('/').at(-1) ?? '';
  await expect(valueOf(alicePage, 'invoice_number')).toHaveValue('INV-ONE-0001', { timeout: 30_000 });
  await expect(valueOf(alicePage, 'invoice_number')).toBeEditable();
  await expect(alicePage.getByRole('button', { name: 'Confirm', exact: true })).toBeVisible();
  await expect(alicePage.getByText(/kept as a draft in this browser/i)).toHaveCount(0);
  await keepScreenshot(alicePage, 'one-review-opened');

  // Her correction goes to the server, then she confirms (through the check gate, if one asks).
  await valueOf(alicePage, 'invoice_number').fill('INV-ONE-0001-A');
  await expect(alicePage.getByText('All changes saved')).toBeVisible({ timeout: 15_000 });
  await alicePage.getByRole('button', { name: 'Confirm', exact: true }).click();
  const anyway = alicePage.getByRole('button', { name: 'Confirm anyway', exact: true });
  const confirmed = alicePage.getByText(/^Confirmed by /);
  await expect(async () => {
    if (await anyway.isVisible()) await anyway.click({ timeout: 2_000 });
    await expect(confirmed).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });

  // Bob, in his own browser: the queue shows it confirmed, its review has Alice's correction.
  const bobPage = await operatorPage(browser, bob);
  await bobPage.goto(`/queue?q=${encodeURIComponent(file)}`);
  const row = bobPage.locator(`tr[data-document-id="${documentId}"]`);
  await expect(row).toContainText('Confirmed', { timeout: 15_000 });
  await expect(row).toContainText(`Decided by ${alice}`);
  await row.getByRole('link', { name: file }).click();
  await expect(bobPage).toHaveURL(new RegExp(`/review/${documentId}(\\?[^/]*)?$`));
  await expect(valueOf(bobPage, 'invoice_number')).toHaveValue('INV-ONE-0001-A', { timeout: 30_000 });

  // The team's Uploads: Alice's upload, by her, confirmed, with a link to its review.
  await bobPage.goto('/uploads');
  await expect(bobPage.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  await bobPage.getByRole('radio', { name: 'Everyone’s' }).check({ force: true });
  await expect(bobPage).toHaveURL(/\/uploads\?who=everyone$/);
  const listed = bobPage.locator(`tr[data-document-id="${documentId}"]`);
  await expect(listed).toContainText(alice);
  await expect(listed).toHaveAttribute('data-state', 'confirmed');
  await expect(listed.getByRole('link', { name: file })).toHaveAttribute('href', `/review/${documentId}`);
  await expect(listed).not.toContainText(/b4e6af9b/);
  await keepScreenshot(bobPage, 'uploads-everyone');
  await expectAccessible(bobPage, 'uploads');

  // Alice sends the very same file again: marked a duplicate of the first, with a link to it.
  const again = `again-${file}`;
  await upload(alicePage, again, pdf);
  await expect(alicePage).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const badge = alicePage.locator(`[data-duplicate-of="${documentId}"]`);
  await expect(badge).toContainText('Duplicate of', { timeout: 15_000 });
  await expect(badge.getByRole('link', { name: file })).toBeVisible();
  await alicePage.goto('/uploads');
  const second = alicePage.locator('tr[data-document-id]').filter({ hasText: again });
  await expect(second.locator(`[data-duplicate-of="${documentId}"]`)).toBeVisible();
  await keepScreenshot(alicePage, 'uploads-duplicate');
  await second.getByRole('link', { name: file, exact: true }).click();
  await expect(alicePage).toHaveURL(new RegExp(`/review/${documentId}(\\?[^/]*)?$`));

  // The old address of the list leads to Uploads.
  await alicePage.goto('/jobs');
  await expect(alicePage).toHaveURL(/\/uploads$/);
});
