import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { openInvoiceReview, valueOf } from './support/review-journey';

const INVOICE_MODEL = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';

test('the corrected values are sent to RAG and the service answers 201 with the new document', async ({
  page,
  request,
}) => {
  await openInvoiceReview(page);
  await valueOf(page, 'line_items[0].description').fill('Steel bolts M8 x 40');

  const answer = page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      r.url().includes(`/api/v2/extensions/rag/${INVOICE_MODEL}/documents`),
  );
  await page.getByRole('button', { name: 'Send to RAG' }).click();
  const response = await answer;
  expect(response.status()).toBe(201);

  const status = page.getByText(/Stored as validated document/);
  await expect(status).toBeVisible();
  const { document } = (await response.json()) as { document: { id: string; inference_id: string } };
  await expect(status).toContainText(document.id);
  // The inference it was made from is the one under review.
  await page.getByRole('tab', { name: 'Details' }).click();
  await expect(page.getByRole('tabpanel')).toContainText(document.inference_id);

  // The service keeps it: listed among the model's RAG documents, with the corrected value.
  const list = await request.get(`/api/v2/extensions/rag/${INVOICE_MODEL}/documents`);
  expect(list.status()).toBe(200);
  const { documents } = (await list.json()) as {
    documents: {
      id: string;
      fields: { line_items: { items: { fields: { description: { value: string } } }[] } };
    }[];
  };
  const stored = documents.find((d) => d.id === document.id);
  expect(stored?.fields.line_items.items[0]?.fields.description.value).toBe('Steel bolts M8 x 40');
  await keepScreenshot(page, 'review-rag-sent');
});
