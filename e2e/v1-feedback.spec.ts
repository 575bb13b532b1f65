/**
 * v1 feedback from the review, against the embedded reference service (no request mocked): a sync
 * prediction corrected, its change sent with PATCH, then every validated field with PUT, each read back
 * through the app server (GET …/feedback, the reference service's extension); and a product whose
 * feedback is off, whose 403 is explained with the draft kept.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { makeInvoicePdf } from './support/make-invoice';
import { valueOf } from './support/review-journey';

interface Product {
  account: string;
  name: string;
  version: string;
  mode: 'Asynchronous' | 'Synchronous';
}

/** Sends a generated invoice to a v1 product from the upload form; returns the service's document id. */
async function predictV1(page: Page, product: Product, filename: string): Promise<string> {
  const doc = await makeInvoicePdf();
  await page.goto('/');
  await page.getByRole('radio', { name: 'Prediction API (v1)' }).check();
  await page.getByLabel('Account').fill(product.account);
  await page.getByLabel('Product name').fill(product.name);
  await page.getByLabel('Version').fill(product.version);
  await page.getByRole('radio', { name: new RegExp(`^${product.mode}`) }).check();
  await page.getByLabel('Document', { exact: true }).setInputFiles({
    name: filename,
    mimeType: 'application/pdf',
    buffer: Buffer.from(doc.bytes),
  });
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
  // The prediction's page becomes the kept document's one review once its result is in (issue 21).
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  // Every product here reads the total.
  await expect(valueOf(page, 'total_amount')).toBeVisible({ timeout: 30_000 });
  // The service's own id of the document (v1 feedback is addressed by it), as the review store has it.
  const reviewId = new URL(page.url()).pathname.split('/').pop() ?? '';
  const kept = await page.request.get(`/api/review/documents/${reviewId}`);
  expect(kept.status()).toBe(200);
  return ((await kept.json()) as { document: { upstreamResultId: string } }).document.upstreamResultId;
}

const panelOf = (page: Page) => page.getByRole('region', { name: 'Send feedback to the service' });

/** The panel is folded under its summary (so the values list keeps its height): unfolded here. */
async function openPanel(page: Page) {
  const panel = panelOf(page);
  await panel.locator('summary').click();
  await expect(panel.getByRole('button', { name: 'Send feedback' })).toBeVisible();
  return panel;
}

async function previewBody(page: Page): Promise<unknown> {
  return JSON.parse(
    (await panelOf(page).getByRole('region', { name: 'Feedback preview' }).textContent()) ?? '',
  );
}

/** Only the fields the service stores something for (its answer lists every field, null where unset). */
function filled(feedback: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(feedback).filter(([, v]) => v !== null));
}

/**
 * The service's answer to the panel's send, as the browser got it. (The request body itself is not
 * visible to Playwright for this fetch; the preview shows it and the read-back checks what was stored.)
 */
async function feedbackAnswer(page: Page, method: 'PATCH' | 'PUT'): Promise<Record<string, unknown>> {
  const response = await page.waitForResponse(
    (r) => r.request().method() === method && r.url().endsWith('/feedback'),
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { feedback: Record<string, unknown> }).feedback;
}

async function readBack(page: Page, documentId: string): Promise<Record<string, unknown>> {
  const response = await page.request.get(`/api/v1/documents/${encodeURIComponent(documentId)}/feedback`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { feedback: Record<string, unknown> };
  expect(body.feedback).toHaveProperty('locale');
  return body.feedback;
}

test('v1 feedback: the change sent with PATCH, then every validated field with PUT, each read back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const documentId = await predictV1(
    page,
    { account: 'mindee', name: 'invoices', version: '4', mode: 'Synchronous' },
    'feedback-invoice.pdf',
  );
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0042');
  await expect(panelOf(page).locator('summary')).toContainText('nothing to send yet');
  const panel = await openPanel(page);
  const send = panel.getByRole('button', { name: 'Send feedback' });
  await expect(panel.getByRole('radio', { name: /^Send my changes/ })).toBeChecked();
  await expect(send).toBeDisabled();
  // v1 has no RAG: the feedback panel stands in for it.
  await expect(page.getByRole('button', { name: 'Send to RAG' })).toHaveCount(0);

  await valueOf(page, 'total_amount').fill('1300.5');
  await expect.poll(() => previewBody(page)).toEqual({ feedback: { total_amount: { value: 1300.5 } } });
  await expectAccessible(page, 'v1-feedback-preview');

  const patch = feedbackAnswer(page, 'PATCH');
  await send.click();
  expect(filled(await patch)).toEqual({ total_amount: { value: 1300.5 } });
  await expect(
    panel.getByRole('status').filter({ hasText: 'Sent: the service stores exactly this' }),
  ).toBeVisible();
  const answer = panel.getByRole('region', { name: 'Stored feedback' });
  await expect(answer).toContainText('The service answered: it now stores feedback for 1 of');
  await expect(answer).toContainText('"total_amount"');
  // Sent: nothing new to send until the draft changes.
  await expect(send).toBeDisabled();
  expect(filled(await readBack(page, documentId))).toEqual({ total_amount: { value: 1300.5 } });
  await keepScreenshot(page, 'v1-feedback-patched');

  // Enter in a value confirms it: PUT sends it with the changed one.
  await valueOf(page, 'invoice_number').press('Enter');
  await panel.getByRole('radio', { name: /^Send every field I validated/ }).check();
  const validated = {
    invoice_number: { value: 'INV-2024-0042' },
    total_amount: { value: 1300.5 },
  };
  await expect.poll(() => previewBody(page)).toEqual({ feedback: validated });
  await expect(send).toBeEnabled();
  const put = feedbackAnswer(page, 'PUT');
  await send.click();
  expect(filled(await put)).toEqual(validated);
  await expect(answer).toContainText('it now stores feedback for 2 of');
  await expect(send).toBeDisabled();
  expect(filled(await readBack(page, documentId))).toEqual(validated);
  await expectAccessible(page, 'v1-feedback-put');
  await keepScreenshot(page, 'v1-feedback-put');

  // After a reload the stored feedback is read back: still "sent", nothing sent twice.
  await page.reload();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1300.5', { timeout: 30_000 });
  await expect(panel.locator('summary')).toContainText('(sent)');
  await openPanel(page);
  await panel.getByRole('radio', { name: /^Send every field I validated/ }).check();
  await expect(
    panel.getByRole('status').filter({ hasText: 'Sent: the service stores exactly this' }),
  ).toBeVisible();
  await expect(send).toBeDisabled();
});

test('v1 feedback to a product that does not take it: the 403 explained, the draft kept', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await predictV1(
    page,
    { account: 'acme-corp', name: 'purchase_orders', version: '1', mode: 'Asynchronous' },
    'feedback-po.pdf',
  );
  const panel = await openPanel(page);
  await valueOf(page, 'total_amount').fill('99.5');
  await expect.poll(() => previewBody(page)).toEqual({ feedback: { total_amount: { value: 99.5 } } });
  await panel.getByRole('button', { name: 'Send feedback' }).click();

  const alert = panel.getByRole('alert');
  await expect(alert).toContainText('acme-corp/purchase_orders/v1 does not take feedback');
  await expect(alert).toContainText('403-002');
  // Nothing to retry: the product refuses feedback whatever is sent.
  await expect(alert.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expect(valueOf(page, 'total_amount')).toHaveValue('99.5');
  await expect.poll(() => previewBody(page)).toEqual({ feedback: { total_amount: { value: 99.5 } } });
  await expectAccessible(page, 'v1-feedback-403');
  await keepScreenshot(page, 'v1-feedback-403');
});
