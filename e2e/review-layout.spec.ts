/**
 * The values first (issue 21): on a queued invoice's review, at 1280×720 and 1440×900, the value list
 * is the review panel's one scrolling region and keeps at least half of the window's height, with a
 * business rule failing (a one-line count that unfolds) and with History open (a tab, never above the
 * values); the decision bar stays in view at the panel's foot; the heading is the file name, the
 * alias beside it; the values titled by the data schema (the path on hover); the split between page
 * and values moves with the arrow keys and is remembered.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { makeReviewInvoicePdf, REVIEW_INVOICE } from './support/review-invoice';
import { csrfHeader, postWaitingOut429, uniqueName } from './support/team';
import { INVOICE_MODEL_ID } from './support/upload-steps';

const SETTINGS = `/api/review/models/v2/${encodeURIComponent(INVOICE_MODEL_ID)}/settings`;

async function putRules(request: APIRequestContext, rules: unknown[]): Promise<void> {
  const current = (await (await request.get(SETTINGS)).json()) as { version: number };
  const saved = await request.put(SETTINGS, {
    headers: await csrfHeader(request),
    data: { version: current.version, routing: {}, rules },
  });
  expect(saved.status()).toBe(200);
}

/** The value list's region: the tab panel, which is the only part of the review panel that scrolls. */
const valuesRegion = (page: Page) => page.getByRole('tabpanel');

async function visibleHeight(page: Page): Promise<number> {
  return valuesRegion(page).evaluate((el) => el.clientHeight);
}

test('the values keep at least half the window, with a failing rule and with History open, at 1280×720 and 1440×900', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const batch = uniqueName('layout');
  // A long file name: the heading is one line, cut short, the whole in its tooltip.
  const fileName = `${batch}-supplier-acme-invoice-march-2024-second-delivery-with-corrections-scan.pdf`;
  const pdf = Buffer.from(await makeReviewInvoicePdf({ ...REVIEW_INVOICE, invoiceNumber: 'LAYOUT-77' }));
  const sent = await postWaitingOut429(page.request, '/api/v2/products/extraction/enqueue', {
    multipart: {
      model_id: INVOICE_MODEL_ID,
      alias: `${batch}-alias`,
      file: { name: fileName, mimeType: 'application/pdf', buffer: pdf },
    },
  });
  expect(sent.status()).toBe(202);
  let documentId = '';
  await expect(async () => {
    const listed = await page.request.get(`/api/review/documents?q=${batch}&state=to_review`);
    const { documents } = (await listed.json()) as { documents: { id: string }[] };
    expect(documents).toHaveLength(1);
    documentId = documents[0]?.id ?? '';
  }).toPass({ timeout: 60_000 });

  // Only this journey's invoice (numbered LAYOUT-…) fails the rule.
  await putRules(page.request, [
    { id: 'layout-numbers', kind: 'pattern', field: 'invoice_number', pattern: '^(INV|FAC)-' },
  ]);
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/review/${documentId}`);
    await page.getByRole('button', { name: 'Review this document' }).click();

    for (const size of [
      { width: 1280, height: 720 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await page.goto(`/review/${documentId}`);
      await expect(valueOf(page, 'invoice_number')).toHaveValue('LAYOUT-77', { timeout: 30_000 });
      await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true', {
        timeout: 30_000,
      });
      const half = size.height / 2;
      const label = `${size.width}x${size.height}`;

      // The heading: the file name on one line, cut short; the alias beside it.
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toHaveText(fileName);
      await expect(heading).toHaveAttribute('title', fileName);
      const headingBox = await heading.boundingBox();
      expect(headingBox?.height ?? 0).toBeLessThan(40);
      await expect(page.getByText(`${batch}-alias`, { exact: true })).toBeVisible();

      // Each value is titled by the model's data schema, its API path on hover; its editor is named by
      // the title; objects are sections under their titles, list items "Line Item 1"; no title runs
      // out of its row.
      await expect(page.locator('label[title="invoice_number"]')).toHaveText('Invoice Number');
      await expect(valueOf(page, 'invoice_number')).toHaveAccessibleName('Invoice Number');
      await expect(page.getByRole('button', { name: /^Supplier Address/ })).toHaveAttribute(
        'title',
        'supplier_address',
      );
      await expect(valueOf(page, 'supplier_address.street_number')).toHaveAccessibleName('Street Number');
      await expect(valueOf(page, 'line_items[0].description')).toHaveAccessibleName(
        'Description, Line Item 1',
      );
      const overflowing = await valuesRegion(page).evaluate((el) =>
        [...el.querySelectorAll('label')]
          .filter(
            (l) =>
              l.scrollWidth > l.clientWidth + 1 ||
              l.getBoundingClientRect().right > el.getBoundingClientRect().right,
          )
          .map((l) => l.textContent),
      );
      expect(overflowing).toEqual([]);

      // The failing rule is one line with its count; the values keep at least half the window.
      const rules = page.getByRole('region', { name: 'Business rules' });
      const summary = rules.getByRole('button', { name: /1 rule fails/ });
      await expect(summary).toHaveAttribute('aria-expanded', 'false');
      expect((await rules.boundingBox())?.height ?? 0).toBeLessThan(40);
      expect(await visibleHeight(page)).toBeGreaterThanOrEqual(half);
      // The review ends inside the window: the decisions are in view without scrolling the page.
      const confirm = page.getByRole('button', { name: /Confirm and next/ });
      await expect(confirm).toBeInViewport({ ratio: 1 });
      // The page itself does not scroll: the value list does.
      expect(
        await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
      ).toBeLessThanOrEqual(0);
      const scrolls = await valuesRegion(page).evaluate((el) => el.scrollHeight > el.clientHeight);
      expect(scrolls).toBe(true);
      await keepScreenshot(page, `review-layout-${label}`);

      // Unfolded, the rule's message shows.
      await summary.click();
      await expect(rules).toContainText('Invoice Number "LAYOUT-77" does not match ^(INV|FAC)-');
      await keepScreenshot(page, `review-layout-${label}-rules`);
      await summary.click();

      // History is a tab: it takes the values' place, never stacks above them.
      await page.getByRole('tab', { name: 'History' }).click();
      await expect(page.getByRole('list', { name: 'Events' })).toContainText('Opened it for review');
      expect(await visibleHeight(page)).toBeGreaterThanOrEqual(half);
      await expect(confirm).toBeInViewport({ ratio: 1 });
      await keepScreenshot(page, `review-layout-${label}-history`);
      // Details names each value's API path beside its title, with what it belongs to.
      await page.getByRole('tab', { name: 'Details' }).click();
      const fieldsList = page
        .getByRole('region', { name: 'Fields' })
        .or(page.locator('section[aria-labelledby="review-fields"]'));
      await expect(fieldsList).toContainText(
        'supplier_address.street_numberSupplier Address › Street Number',
      );
      await expect(fieldsList).toContainText('line_items[0].descriptionLine Item 1 › Description');
      await page.getByRole('tab', { name: 'Values' }).click();
      await expect(valueOf(page, 'invoice_number')).toBeVisible();
      expect(await visibleHeight(page)).toBeGreaterThanOrEqual(half);
    }

    // The split: the arrow keys move it, the values pane widens, and the next review remembers it.
    const split = page.getByRole('separator', { name: /Width of the values/ });
    const values = page.getByRole('complementary', { name: 'Review' });
    const before = Number(await split.getAttribute('aria-valuenow'));
    const widthBefore = (await values.boundingBox())?.width ?? 0;
    await split.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(split).toHaveAttribute('aria-valuenow', String(before + 4));
    expect((await values.boundingBox())?.width ?? 0).toBeGreaterThan(widthBefore);
    await page.reload();
    await expect(valueOf(page, 'invoice_number')).toBeVisible({ timeout: 30_000 });
    await expect(split).toHaveAttribute('aria-valuenow', String(before + 4));
    // The pointer drags it too: to the page's middle, about half the width for the values.
    const box = await page.getByRole('region', { name: 'Document', exact: true }).boundingBox();
    const handle = await split.boundingBox();
    if (box && handle) {
      await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2, handle.y + handle.height / 2, { steps: 5 });
      await page.mouse.up();
    }
    expect(Number(await split.getAttribute('aria-valuenow'))).toBeGreaterThan(before + 4);
    await split.focus();
    await page.keyboard.press('End');
    await expect(split).toHaveAttribute('aria-valuenow', '70');
    await keepScreenshot(page, 'review-layout-split-widest');
    await page.keyboard.press('Home');
    await expect(split).toHaveAttribute('aria-valuenow', '30');
    await page.evaluate(() => window.localStorage.removeItem('extraction-review:values-width'));

    await page.getByRole('button', { name: 'Release' }).click();
    await expect(page).toHaveURL(/\/queue/, { timeout: 15_000 });
  } finally {
    await putRules(page.request, []);
  }
});
