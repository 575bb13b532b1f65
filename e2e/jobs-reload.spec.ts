import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { invoicePdfFile } from './support/upload-documents';
import { chooseFiles, extract, jobRow, openUploadForm, uploadRow } from './support/upload-steps';

interface Kept {
  jobId: string;
  hasFile: boolean;
  settled: boolean;
}

/** What this browser keeps in IndexedDB (database `extraction-review`, store `documents`). */
function keptJobs(page: Page): Promise<Kept[]> {
  return page.evaluate(
    () =>
      new Promise<Kept[]>((resolve, reject) => {
        const open = indexedDB.open('extraction-review');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('documents').objectStore('documents').getAll();
          request.onsuccess = () =>
            resolve(
              (request.result as { jobId: string; file: unknown; settledJob: unknown }[])
                .map((r) => ({
                  jobId: r.jobId,
                  hasFile: r.file instanceof Blob,
                  settled: r.settledJob != null,
                }))
                .sort((a, b) => a.jobId.localeCompare(b.jobId)),
            );
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

test('the job list survives a reload, and removing a job removes its stored file', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/jobs');
  await expect(page.getByText('No jobs yet.')).toBeVisible();
  await expectAccessible(page, 'empty-job-list');

  const files = [
    await invoicePdfFile('keep-me.pdf', { invoiceNumber: 'INV-K-0001' }),
    await invoicePdfFile('remove-me.pdf', { invoiceNumber: 'INV-K-0002' }),
  ];
  await openUploadForm(page);
  const rawText = page.getByRole('group', { name: /Raw text/ });
  await rawText.getByText('Off', { exact: true }).click();
  await expect(rawText.getByRole('radio', { name: 'Off' })).toBeChecked();
  await page.getByLabel('Alias').fill('PO-7781');
  await chooseFiles(page, files);
  await extract(page);
  for (const file of files)
    await expect(uploadRow(page, file.name)).toHaveAttribute('data-phase', 'enqueued', { timeout: 30_000 });

  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  for (const file of files) {
    const row = jobRow(page, file.name);
    await expect(row).toHaveAttribute('data-status', 'Processed', { timeout: 30_000 });
    await expect(row.locator('[data-webhook-status="Processed"]')).toBeVisible();
  }
  // Files and jobs are kept; once a job can no longer change, so is its last state.
  await expect
    .poll(() => keptJobs(page))
    .toEqual([
      expect.objectContaining({ hasFile: true, settled: true }),
      expect.objectContaining({ hasFile: true, settled: true }),
    ]);
  const ids = (await keptJobs(page)).map((kept) => kept.jobId);

  const polls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v2\/jobs\//.test(request.url())) polls.push(request.url());
  });
  await page.reload();
  for (const file of files) {
    const row = jobRow(page, file.name);
    await expect(row).toHaveAttribute('data-status', 'Processed');
    // What was sent is kept with the job: only the options that were set.
    await expect(row).toContainText('alias “PO-7781”, raw_text off, 1 webhook');
  }
  // Settled jobs are shown as kept: the service is not asked about them again.
  expect(polls).toEqual([]);
  await keepScreenshot(page, 'jobs-after-reload', { fullPage: true });

  const removed = jobRow(page, 'remove-me.pdf');
  const removedId = await removed.getAttribute('data-job-id');
  await removed.getByRole('button', { name: 'Remove remove-me.pdf from the list' }).click();
  await expect(removed).toContainText('Remove it, its stored file and any unsent corrections?');
  await removed.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(jobRow(page, 'remove-me.pdf')).toHaveCount(0);
  await expect(jobRow(page, 'keep-me.pdf')).toBeVisible();
  expect((await keptJobs(page)).map((kept) => kept.jobId)).toEqual(ids.filter((id) => id !== removedId));

  await page.reload();
  await expect(jobRow(page, 'keep-me.pdf')).toHaveAttribute('data-status', 'Processed');
  await expect(jobRow(page, 'remove-me.pdf')).toHaveCount(0);
});
