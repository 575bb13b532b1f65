import { expect, test } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import {
  brokenPdfFile,
  encryptedLookingPdfFile,
  invoicePdfFile,
  invoicePngFile,
  renamedTextFile,
} from './support/upload-documents';
import {
  INVOICE_MODEL_ID,
  chooseFiles,
  extract,
  openUploadForm,
  selectedFile,
  uploadRow,
} from './support/upload-steps';

test('files are checked before sending (type from the bytes, encryption); pasted and dropped files are taken', async ({
  page,
}) => {
  await openUploadForm(page);
  await chooseFiles(page, [renamedTextFile('notes.pdf'), await encryptedLookingPdfFile('locked.pdf')]);

  const renamed = selectedFile(page, 'notes.pdf');
  await expect(renamed).toHaveAttribute('data-check', 'unsupported');
  await expect(renamed).toContainText('does not start like a PDF');
  const locked = selectedFile(page, 'locked.pdf');
  await expect(locked).toHaveAttribute('data-check', 'encrypted');
  await expect(locked).toContainText('This PDF is encrypted');
  await expect(page.getByText('None of these files can be sent')).toBeVisible();

  // Pasted from the clipboard: a scanned page, as a screenshot tool would put it there.
  const png = await invoicePngFile('pasted.png', { invoiceNumber: 'INV-P-0001' });
  await page.evaluate(
    ({ bytes, name }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
    },
    { bytes: [...png.buffer], name: png.name },
  );
  await expect(selectedFile(page, 'pasted.png')).toHaveAttribute('data-check', 'ok');
  await expect(page.getByText('1 file to send')).toBeVisible();

  // Dropped on the drop zone.
  const pdf = await invoicePdfFile('dropped.pdf', { invoiceNumber: 'INV-D-0001' });
  const dropped = await page.evaluateHandle(
    ({ bytes, name }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
      return data;
    },
    { bytes: [...pdf.buffer], name: pdf.name },
  );
  const zone = page.getByText('Drop files here, paste them, or choose them');
  await zone.dispatchEvent('dragover', { dataTransfer: dropped });
  await zone.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(selectedFile(page, 'dropped.pdf')).toHaveAttribute('data-check', 'ok');
  await expect(page.getByText('2 files to send')).toBeVisible();

  // An encrypted PDF that opens without a password may be sent on the operator's word.
  await locked.getByLabel('It opens without a password: send it anyway').check();
  await expect(page.getByText('3 files to send')).toBeVisible();

  // A model the list does not show is used by its id.
  await page.getByLabel('Model', { exact: true }).selectOption({ label: 'Another one: paste its id…' });
  const modelId = page.getByLabel('Model id');
  await modelId.fill('not-an-id');
  await expect(page.getByText('A model id is a UUID')).toBeVisible();
  await expect(page.getByText('The model id is not a valid id.')).toBeVisible();
  await modelId.fill('7c1f3e2a-5b8d-4c6e-9f0a-2d4b6e8a1c3f');
  await expect(page.getByText('3 files to send')).toBeVisible();
  await keepScreenshot(page, 'upload-checks', { fullPage: true });
  await expectAccessible(page, 'upload-checks');
});

test('a 422 from the service is shown with its code and the pointer into the request', async ({ page }) => {
  await openUploadForm(page);
  // A webhook id pasted by hand that the model does not have: nothing client-side can know that.
  await page.getByLabel('Other webhook ids').fill('0b6f2a51-7c1e-4e7a-9d1b-1234567890ab');
  await chooseFiles(page, [await invoicePdfFile('wrong-webhook.pdf', { invoiceNumber: 'INV-W-0001' })]);
  await extract(page);

  const row = uploadRow(page, 'wrong-webhook.pdf');
  await expect(row).toHaveAttribute('data-phase', 'failed', { timeout: 30_000 });
  const alert = row.getByRole('alert');
  await expect(alert).toContainText('422-001');
  await expect(alert.locator('code', { hasText: /^#\/webhook_ids\/\d$/ })).toBeVisible();
  await expect(alert).toContainText(`the model ${INVOICE_MODEL_ID} has no webhook with the id`);
  await expect(alert).toContainText('correct what is pointed out above in the form');
  // A single file that failed stays on the form: nothing to open.
  await expect(page).toHaveURL(/\/$/);
  await keepScreenshot(page, 'upload-422-webhook', { fullPage: true });

  // A file that looks like a PDF to the checks here, but that the service cannot read.
  await page.getByLabel('Other webhook ids').fill('');
  await chooseFiles(page, [brokenPdfFile('broken.pdf')]);
  await expect(selectedFile(page, 'broken.pdf')).toHaveAttribute('data-check', 'ok');
  await extract(page);
  const broken = uploadRow(page, 'broken.pdf').getByRole('alert');
  await expect(broken).toContainText('422-003', { timeout: 30_000 });
  await expect(broken.locator('code', { hasText: '#/file' })).toBeVisible();
  await expect(broken).toContainText('The service cannot read this file');
  await keepScreenshot(page, 'upload-422-document', { fullPage: true });
  await expectAccessible(page, 'upload-failures');
});

test('a URL is checked as it is typed, and one the service may not fetch is refused with its pointer', async ({
  page,
}) => {
  await openUploadForm(page);
  await page.getByLabel('A public URL').check();
  const url = page.getByLabel('Public HTTPS URL');
  await url.fill('http://example.com/invoice.pdf');
  await expect(page.getByText('Expected a public https:// URL')).toBeVisible();
  await extract(page);
  await expect(page.getByText('Give a public https:// URL.')).toBeVisible();

  // Well formed, but not public: the service refuses to fetch it (no request leaves for it).
  await url.fill('https://127.0.0.1:9/invoice.pdf');
  await expect(page.getByText('1 URL to send')).toBeVisible();
  await extract(page);
  const row = uploadRow(page, 'https://127.0.0.1:9/invoice.pdf');
  await expect(row).toHaveAttribute('data-phase', 'failed', { timeout: 30_000 });
  await expect(row.getByRole('alert')).toContainText('422-005');
  await expect(row.getByRole('alert').locator('code', { hasText: '#/url' })).toBeVisible();
  await keepScreenshot(page, 'upload-url-refused', { fullPage: true });
});
