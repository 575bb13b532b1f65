import { expect, test } from '@playwright/test';
import { valueOf } from './support/review-journey';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { makeInvoicePdf } from './support/make-invoice';
import { boxWithin, expectNear, pageSlot, polygonOf } from './support/viewer-review';
import { postWaitingOut429 } from './support/team';

test('a saved v2 result opened with its document: polygons on the words, no request to any service, kept across a reload', async ({
  page,
}) => {
  // A real result first, as an operator would have it in their logs: extracted by the reference service.
  const doc = await makeInvoicePdf();
  const enqueued = await postWaitingOut429(page.request, '/api/v2/products/extraction/enqueue', {
    multipart: {
      model_id: 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a',
      file: { name: 'saved-invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from(doc.bytes) },
    },
  });
  expect(enqueued.status()).toBe(202);
  const { job } = (await enqueued.json()) as { job: { id: string } };
  let resultUrl: string | null = null;
  await expect(async () => {
    const polled = await page.request.get(`/api/v2/jobs/${job.id}?redirect=false`);
    resultUrl = ((await polled.json()) as { job: { result_url: string | null } }).job.result_url;
    expect(resultUrl).not.toBeNull();
  }).toPass({ timeout: 45_000 });
  const resultText = await (await page.request.get(resultUrl ?? '')).text();

  const serviceCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v[12]\//.test(new URL(request.url()).pathname)) serviceCalls.push(request.url());
  });

  await page.goto('/open');
  await expect(page.getByRole('heading', { name: 'Open a saved result' })).toBeVisible();
  // A file that is not a result is refused with what was expected.
  await page.getByLabel('Document').setInputFiles({
    name: 'saved-invoice.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(doc.bytes),
  });
  await page.getByLabel('Result JSON').setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"hello": "world"}'),
  });
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Not an extraction result');
  await expectAccessible(page, 'open-saved-refused');

  await page.getByLabel('Result JSON').setInputFiles({
    name: 'result.json',
    mimeType: 'application/json',
    buffer: Buffer.from(resultText),
  });
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page).toHaveURL(/\/saved\/v2-/);
  const slot = pageSlot(page, 0, 1);
  await expect(slot).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  const polygon = polygonOf(slot, 'invoice_number');
  const expected = doc.words['INV-2024-0042'];
  if (!expected) throw new Error('no box for the invoice number');
  expectNear(await boxWithin(polygon, slot), expected, 0.01, 'invoice_number from the saved result');
  await expect(page.getByText('Opened from saved files: nothing is sent to a service.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send to RAG' })).toHaveCount(0);

  // A correction is kept across a reload, still without any request to the service.
  const value = valueOf(page, 'invoice_number');
  await value.fill('INV-2024-0043');
  await page.reload();
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0043');
  await keepScreenshot(page, 'saved-result-review');
  await expectAccessible(page, 'saved-result-review');
  expect(serviceCalls, 'requests to the extraction API while opening a saved result').toEqual([]);
});
