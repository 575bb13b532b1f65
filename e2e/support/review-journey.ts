/**
 * Shared steps of the review journeys: a generated invoice sent through the upload form to the real
 * reference service, the review opened on its result; values found by their path (`data-field-path`);
 * downloads read; axe-core scans. Nothing is mocked.
 */
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { makeReviewInvoicePdf, REVIEW_INVOICE } from './review-invoice';

/**
 * A value's editor by its path (`data-field-path`): its accessible name is the field's title, which
 * several values may share (`Street Number` of two addresses, a column's cells). The row and the
 * polygon carry the same attribute; only the editor is an input or a select.
 */
export function valueOf(page: Page | Locator, path: string) {
  return page.locator(`:is(input, select)[data-field-path="${path}"]`);
}

/** Sends the generated invoice from the upload form and waits for its review (`/review/{id}`). */
export async function openInvoiceReview(page: Page, filename = 'invoice-0077.pdf'): Promise<string> {
  const bytes = await makeReviewInvoicePdf();
  await page.goto('/');
  await page.getByLabel('Document').setInputFiles({
    name: filename,
    mimeType: 'application/pdf',
    buffer: Buffer.from(bytes),
  });
  await page.getByRole('button', { name: 'Extract' }).click();
  // The upload may wait out the reference service's 429 (6 enqueues per 2 s) while journeys run side by side.
  // The job's page becomes the document's one review once its result is in (issue 21).
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  await expect(valueOf(page, 'invoice_number')).toHaveValue(REVIEW_INVOICE.invoiceNumber, {
    timeout: 45_000,
  });
  // The draft is read once the review opens; wait for the document too, so screenshots show it.
  await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true', {
    timeout: 30_000,
  });
  return new URL(page.url()).pathname;
}

export async function readDownload(download: Download): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** RFC 4180 parsing, enough to check our own export (quoted cells, doubled quotes, CRLF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}
