import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { invoicePdfFile } from './support/upload-documents';
import {
  chooseFiles,
  extract,
  INVOICE_MODEL_ID,
  jobRow,
  openUploadForm,
  uploadRow,
} from './support/upload-steps';
import { postWaitingOut429 } from './support/team';

test('the webhook reaches the app server, which pushes the job to the browser before the next poll', async ({
  page,
}) => {
  const files = [
    await invoicePdfFile('live-1.pdf', { invoiceNumber: 'INV-L-0001' }),
    await invoicePdfFile('live-2.pdf', { invoiceNumber: 'INV-L-0002' }),
  ];
  const polls: { url: string; at: number }[] = [];
  page.on('request', (request) => {
    if (/\/api\/v2\/jobs\/[^/?]+/.test(request.url())) polls.push({ url: request.url(), at: Date.now() });
  });
  const events = page.waitForRequest((request) => request.url().endsWith('/api/events'));

  // What earlier journeys' confirmations send back (RAG, webhooks) goes to the same service: let it
  // settle first, so that the measured jobs are the only work in flight.
  test.setTimeout(150_000);
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get('/api/review/deliveries?state=pending')).json()) as {
            counts: { pending: number };
          }
        ).counts.pending,
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(0);

  // A first job warms the service's extraction threads, so that the measured ones are read in well
  // under the 2 s before the first poll, as on a service that has been running for a while.
  const warmFile = await invoicePdfFile('warm-up.pdf', { invoiceNumber: 'INV-L-0000' });
  const warm = await postWaitingOut429(page.request, '/api/v2/products/extraction/enqueue', {
    multipart: { model_id: INVOICE_MODEL_ID, file: warmFile },
  });
  expect(warm.status()).toBe(202);
  const warmId = ((await warm.json()) as { job: { id: string } }).job.id;
  await expect(async () => {
    const job = await page.request.get(`/api/v2/jobs/${warmId}?redirect=false`);
    expect(((await job.json()) as { job: { status: string } }).job.status).toBe('Processed');
  }).toPass({ timeout: 60_000 });

  await openUploadForm(page);
  await events;
  // This app's webhook is ticked by default, so the service calls the app server when each job ends.
  await expect(page.getByRole('checkbox', { name: /extraction-review/ })).toBeChecked();
  await chooseFiles(page, files);
  await extract(page);
  for (const file of files)
    await expect(uploadRow(page, file.name)).toHaveAttribute('data-phase', 'enqueued', { timeout: 30_000 });

  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page.getByText('Live updates on')).toBeVisible();
  for (const file of files) {
    const row = jobRow(page, file.name);
    await expect(row).toHaveAttribute('data-status', 'Processed', { timeout: 30_000 });
    // The final status came from the fetch the event triggered, not from a poll: the first poll is due
    // 2 s after the enqueue and a small PDF is read well before.
    await expect(row).toHaveAttribute('data-updated-by', 'event');
    // The delivery itself is reported by the service in job.webhooks.
    await expect(row.locator('[data-webhook-status="Processed"]')).toContainText('Delivered');
  }
  await keepScreenshot(page, 'jobs-live', { fullPage: true });

  // Once the deliveries are known, nothing polls these jobs any more.
  const settled = polls.length;
  await page.waitForTimeout(4_000);
  expect(polls.slice(settled)).toEqual([]);
});
