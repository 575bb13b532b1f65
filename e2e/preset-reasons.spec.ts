/**
 * Preset reasons per model (issue 21), end to end at 1280×720 and 1440×900: an admin adds a reason
 * to reject to the invoice model on its Rules page; an operator rejects a queued invoice of this
 * journey's own batch choosing that reason (it fills the text, one string as before); the document's
 * history shows it. The model's reasons are put back as they were at the end, for other journeys.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { addOperator, csrfHeader, enqueuePdf, NOBODY, signIn, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID, INVOICE_MODEL_NAME } from './support/upload-steps';

const SETTINGS = `/api/review/models/v2/${encodeURIComponent(INVOICE_MODEL_ID)}/settings`;

interface Settings {
  version: number;
  routing: object;
  rules: object[];
  feedbackEnabled: boolean;
  reasons: { reject: string[]; postpone: string[]; override: string[] };
}

async function readSettings(request: APIRequestContext): Promise<Settings> {
  const read = await request.get(SETTINGS);
  expect(read.status()).toBe(200);
  return (await read.json()) as Settings;
}

/** Puts the model's reasons back as they were (its routing and rules as they are now). */
async function restoreReasons(request: APIRequestContext, reasons: Settings['reasons']): Promise<void> {
  const { version, routing, rules, feedbackEnabled } = await readSettings(request);
  const restored = await request.put(SETTINGS, {
    headers: await csrfHeader(request),
    data: { version, routing, rules, feedbackEnabled, reasons },
  });
  expect(restored.status()).toBe(200);
}

async function operatorPage(browser: Browser, name: string, size: Size): Promise<Page> {
  const context = await browser.newContext({ storageState: NOBODY, viewport: size });
  const page = await context.newPage();
  await signIn(page, name);
  return page;
}

type Size = { width: number; height: number };
const SIZES: Size[] = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

for (const size of SIZES) {
  const at = `${String(size.width)}x${String(size.height)}`;
  test(`an admin adds a reason to reject; an operator rejects choosing it, and the history shows it (${at})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(size);
    const batch = uniqueName('reasons');
    const reason = `Sent to the wrong company (${batch})`;
    const pdf = await invoicePdf({ invoiceNumber: `RSN-${batch.slice(-6)}`, total: '42.00' });
    await enqueuePdf(page.request, { name: `${batch}.pdf`, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
    const original = (await readSettings(page.request)).reasons;
    // Its invoice waits in the queue before the operator looks for it.
    await expect(async () => {
      const listed = await page.request.get(`/api/review/documents?q=${batch}&state=to_review`);
      expect(((await listed.json()) as { documents: unknown[] }).documents).toHaveLength(1);
    }).toPass({ timeout: 60_000 });
    const dora = uniqueName('dora');
    await addOperator(dora, 'operator');

    try {
      // The admin adds the reason on the model's Rules page, and saves.
      await page.goto('/');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin' }).click();
      await page.getByRole('menuitem', { name: 'Rules' }).click();
      await page.getByRole('link', { name: INVOICE_MODEL_NAME }).click();
      await expect(page.getByRole('heading', { name: /Rules of/ })).toBeVisible();
      const reject = page.getByRole('region', { name: 'Reject', exact: true });
      await reject.getByRole('button', { name: 'Add a reason to reject' }).click();
      const added = reject.getByRole('textbox').last();
      await expect(added).toBeFocused();
      await added.fill(reason);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status')).toContainText(/Saved \(version \d+\)/);
      await added.scrollIntoViewIfNeeded();
      await keepScreenshot(page, `preset-reasons-rules-page-${at}`);
      expect((await readSettings(page.request)).reasons.reject).toContain(reason);

      // The operator opens this batch's invoice from the queue filtered to it, and rejects it with the reason.
      const doraPage = await operatorPage(browser, dora, size);
      await doraPage.goto(`/queue?q=${encodeURIComponent(batch)}`);
      await doraPage.getByRole('button', { name: 'Start reviewing' }).click();
      await expect(doraPage).toHaveURL(/\/review\/[0-9a-f-]{36}(\?.*)?$/);
      const documentId = new URL(doraPage.url()).pathname.split('/').at(-1) ?? '';
      await expect(valueOf(doraPage, 'invoice_number')).toBeVisible({ timeout: 30_000 });
      await doraPage.getByRole('button', { name: 'Reject…' }).click();
      const dialog = doraPage.getByRole('dialog', { name: 'Reject this document' });
      const choice = dialog.getByRole('radio', { name: reason });
      await choice.check();
      await expect(dialog.getByLabel(/Why is it rejected/)).toHaveValue(reason);
      await expectAccessible(doraPage, 'the reject dialog with preset reasons');
      await keepScreenshot(doraPage, `preset-reasons-reject-dialog-${at}`);
      await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
      await expect(dialog).toBeHidden();

      // The document's history shows the reason.
      await doraPage.goto(`/review/${documentId}`);
      await doraPage.getByRole('tab', { name: 'History' }).click();
      await expect(doraPage.getByRole('list', { name: 'Events' })).toContainText(`Rejected it: ${reason}`, {
        timeout: 15_000,
      });
      await keepScreenshot(doraPage, `preset-reasons-history-${at}`);
      await doraPage.context().close();
    } finally {
      await restoreReasons(page.request, original);
    }
    expect((await readSettings(page.request)).reasons).toEqual(original);
  });
}
