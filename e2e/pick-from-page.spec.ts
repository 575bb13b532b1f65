/**
 * Pick from the page, in real Chromium against the real servers: a queue document's value picked by a
 * click, a Shift+click and a dragged box on a text PDF, by a click on a photo (words read by OCR on
 * the app server) and on a page turned a quarter (`/Rotate 90`); each time the value is checked and
 * the field's new polygon is found over the picked words on screen. A typed total absent from the
 * page warns and offers the printed one, which fixes it; a price typed in a table cell warns there, the
 * first Enter shows the warning and the second confirms it anyway.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { degrees, PDFDocument } from 'pdf-lib';
import { makeInvoicePdf } from './support/make-invoice';
import { valueOf } from './support/review-journey';
import { postWaitingOut429, uniqueName } from './support/team';
import { INVOICE_MODEL_ID } from './support/upload-steps';
import { boxWithin, expectNear, polygonOf, type Box } from './support/viewer-review';
import { rasterise } from './support/viewer-documents';

/** Sends a file as the app's upload does; resolves with the queue document's id once it waits for review. */
async function queueDocument(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const sent = await postWaitingOut429(page.request, '/api/v2/products/extraction/enqueue', {
    multipart: { model_id: INVOICE_MODEL_ID, file },
  });
  expect(sent.status()).toBe(202);
  const batch = file.name.replace(/\.[a-z]+$/, '');
  let id = '';
  await expect(async () => {
    const listed = await page.request.get(`/api/review/documents?q=${batch}&state=to_review`);
    const { documents } = (await listed.json()) as { documents: { id: string }[] };
    expect(documents).toHaveLength(1);
    id = documents[0]?.id ?? '';
  }).toPass({ timeout: 90_000 });
  return id;
}

async function openHeld(page: Page, id: string) {
  await page.goto(`/review/${id}`);
  await page.getByRole('button', { name: 'Review this document' }).click();
  await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true', {
    timeout: 60_000,
  });
}

/** Selects a value and turns pick mode on, waiting for the page's words. */
async function startPicking(page: Page, path: string) {
  await valueOf(page, path).focus();
  await page.getByRole('button', { name: 'Pick from page' }).click();
  await expect(page.locator('[data-page-index="0"] .pick-layer')).toHaveAttribute('data-words', /[1-9]/, {
    timeout: 30_000,
  });
}

const pageBox = (page: Page): Locator => page.locator('[data-page-index="0"] .page-box');
const word = (page: Page, text: string): Locator =>
  page.locator(`[data-page-index="0"] .pick-word[data-text="${text}"]`).first();

/** Where the words are on screen, in units of the page box as shown (0..1 from its top-left). */
async function unionWithin(targets: Locator[], frame: Locator): Promise<Box> {
  const boxes = await Promise.all(targets.map((t) => boxWithin(t, frame)));
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

async function expectPolygonOver(page: Page, path: string, words: Locator[], tolerance = 0.01) {
  const frame = pageBox(page);
  const polygon = polygonOf(page.locator('[data-page-index="0"]'), path).first();
  expectNear(
    await boxWithin(polygon, frame),
    await unionWithin(words, frame),
    tolerance,
    `${path}'s polygon`,
  );
}

test('on a text PDF: a click, a Shift+click and a box pick values with their regions; a typed typo warns and is fixed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const made = await makeInvoicePdf();
  const id = await queueDocument(page, {
    name: `${uniqueName('pick-text')}.pdf`,
    mimeType: 'application/pdf',
    buffer: Buffer.from(made.bytes),
  });
  await openHeld(page, id);

  // A click on the printed total.
  await startPicking(page, 'total_amount');
  const total = word(page, '1,234.56');
  await total.click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  await expectPolygonOver(page, 'total_amount', [total]);
  // Independently of the app's geometry: where pdf-lib drew the word.
  const drawn = made.words['1,234.56'];
  if (!drawn) throw new Error('no word drawn');
  expectNear(
    await boxWithin(polygonOf(page.locator('[data-page-index="0"]'), 'total_amount').first(), pageBox(page)),
    drawn,
    0.02,
    'total_amount over the drawn total',
  );
  await page.keyboard.press('Escape');

  // A click on the first word, a Shift+click on the last: the supplier's whole name.
  await startPicking(page, 'supplier_name');
  await word(page, 'ACME').click();
  await word(page, 'Ltd').click({ modifiers: ['Shift'] });
  await expect(valueOf(page, 'supplier_name')).toHaveValue('ACME Supplies Ltd');
  await expectPolygonOver(page, 'supplier_name', [word(page, 'ACME'), word(page, 'Ltd')]);
  await page.keyboard.press('Escape');

  // A box dragged round the invoice number.
  await startPicking(page, 'invoice_number');
  const number = word(page, 'INV-2024-0042');
  const b = await number.boundingBox();
  if (!b) throw new Error('the invoice number is not on screen');
  await page.mouse.move(b.x - 6, b.y - 6);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width + 6, b.y + b.height + 6, { steps: 4 });
  await page.mouse.up();
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0042');
  await expectPolygonOver(page, 'invoice_number', [number]);
  await page.keyboard.press('Escape');

  // A typo in the total: caught, the printed total offered; taking it fixes the value and its region.
  await valueOf(page, 'total_amount').fill('1243.56');
  const warning = page.getByRole('alert').filter({ hasText: 'is not on page 1' });
  await expect(warning).toContainText('1243.56 is not on page 1');
  await warning.getByRole('button', { name: 'Use 1,234.56 (page 1) for Total Amount' }).click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  await expect(warning).toHaveCount(0);

  // A table cell is checked too: a line added by hand, its price typed and printed nowhere, warns in
  // its cell; the first Enter there shows the warning (it says what a second does), the second
  // confirms it anyway, and says so.
  await page.getByRole('button', { name: 'Add a row to Line Items' }).click();
  const price = valueOf(page, 'line_items[0].total_price');
  await price.fill('77.70');
  const cell = page.locator('td[data-field-path="line_items[0].total_price"]');
  await expect(cell.getByRole('alert')).toContainText('77.70 is not on page 1');
  await price.press('Enter');
  await expect(cell.getByRole('alert')).toContainText('Press Enter again to confirm it anyway');
  await price.press('Enter');
  await expect(cell).toContainText('Confirmed, not on page 1.');
  await expect(cell.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText('All changes saved')).toBeVisible({ timeout: 10_000 });
});

test('on a photo, a click picks a word OCR read on the server, the total corrected with its region', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const made = await makeInvoicePdf();
  const scan = await rasterise(made, 150);
  const png = scan.pages[0];
  if (!png) throw new Error('no page rasterised');
  const id = await queueDocument(page, {
    name: `${uniqueName('pick-photo')}.png`,
    mimeType: 'image/png',
    buffer: png,
  });
  await openHeld(page, id);
  await startPicking(page, 'total_amount');
  const total = page.locator('[data-page-index="0"] .pick-word[data-text*="234"]').first();
  await total.click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  await expectPolygonOver(page, 'total_amount', [total]);
  const drawn = made.words['1,234.56'];
  if (!drawn) throw new Error('no word drawn');
  expectNear(
    await boxWithin(polygonOf(page.locator('[data-page-index="0"]'), 'total_amount').first(), pageBox(page)),
    drawn,
    0.03,
    'total_amount over the scanned total',
  );
});

test('on a page turned a quarter, the picked region lies over the word as shown; the keyboard picks too', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const made = await makeInvoicePdf();
  const pdf = await PDFDocument.load(made.bytes);
  pdf.getPage(0).setRotation(degrees(90));
  const id = await queueDocument(page, {
    name: `${uniqueName('pick-turned')}.pdf`,
    mimeType: 'application/pdf',
    buffer: Buffer.from(await pdf.save()),
  });
  await openHeld(page, id);
  await startPicking(page, 'total_amount');
  const total = word(page, '1,234.56');
  await total.click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  await expectPolygonOver(page, 'total_amount', [total]);
  // On screen the word runs downwards: its box is taller than wide.
  const shown = await boxWithin(total, pageBox(page));
  expect(shown.y1 - shown.y0).toBeGreaterThan(shown.x1 - shown.x0);

  // From the keyboard: `p` starts, the arrows move a word cursor (from the value's words), Enter takes it.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Pick from page' })).toHaveAttribute('aria-pressed', 'false');
  await valueOf(page, 'invoice_number').focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: /Picking/ })).toHaveAttribute('aria-pressed', 'true');
  const cursorText = () =>
    page
      .locator('[data-page-index="0"] .pick-word[data-cursor="true"]')
      .evaluateAll((found) => found[0]?.getAttribute('data-text') ?? null);
  // invoice_number was not found on this page: the cursor starts on the page's first word.
  for (let i = 0; i < 20 && (await cursorText()) !== 'INV-2024-0042'; i++) {
    await page.keyboard.press('ArrowRight');
  }
  expect(await cursorText()).toBe('INV-2024-0042');
  await page.keyboard.press('Enter');
  await expect(valueOf(page, 'invoice_number')).toHaveValue('INV-2024-0042');
  await expectPolygonOver(page, 'invoice_number', [word(page, 'INV-2024-0042')]);
  // Picking again: the first arrow starts on the value's own words (its region), not the page's first.
  await page.keyboard.press('Escape');
  await page.keyboard.press('p');
  await page.keyboard.press('ArrowRight');
  await expect.poll(cursorText).toBe('INV-2024-0042');
});
