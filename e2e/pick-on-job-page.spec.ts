/**
 * Pick from the page on an upload's review, in real Chromium against the real servers: the document
 * uploaded through the app's form, its job's page (`/jobs/{id}`, `/jobs/v1/{id}`) become the kept
 * document's one review (`/review/{id}`, issue 21); a value picked by a click on a text PDF (its text
 * layer read in the browser: no request for words) and on a photo (words read by OCR on the app
 * server, asked for by the document's id); each time the value is checked and the field's new polygon
 * is found over the picked word on screen. A typed total absent from the page warns. For a v1
 * prediction of a photo taken sideways, shown upright, the OCR'd words are turned with the page and
 * the pick lands on the word.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { makeInvoicePdf } from './support/make-invoice';
import { valueOf } from './support/review-journey';
import { uniqueName } from './support/team';
import { rasterise } from './support/viewer-documents';
import { boxWithin, expectNear, openReview, polygonOf } from './support/viewer-review';

/** The app's requests for words (observed, not changed). */
function wordsRequests(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/\/pages\/\d+\/words$/.test(pathname)) asked.push(pathname);
  });
  return asked;
}

const pageBox = (page: Page): Locator => page.locator('[data-page-index="0"] .page-box');

/** Selects a value and turns pick mode on, waiting for the page's words. */
async function startPicking(page: Page, path: string) {
  await expect(valueOf(page, path)).toBeVisible({ timeout: 60_000 });
  await valueOf(page, path).focus();
  await page.getByRole('button', { name: 'Pick from page' }).click();
  await expect(page.locator('[data-page-index="0"] .pick-layer')).toHaveAttribute('data-words', /[1-9]/, {
    timeout: 30_000,
  });
}

async function expectPolygonOver(page: Page, path: string, word: Locator, tolerance = 0.01) {
  const frame = pageBox(page);
  const polygon = polygonOf(page.locator('[data-page-index="0"]'), path).first();
  expectNear(await boxWithin(polygon, frame), await boxWithin(word, frame), tolerance, `${path}'s polygon`);
}

test('on an upload’s text PDF, a click picks the total with its region; a typed total not on the page warns', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const made = await makeInvoicePdf();
  const asked = wordsRequests(page);
  await openReview(page, {
    name: `${uniqueName('job-pick-text')}.pdf`,
    mimeType: 'application/pdf',
    buffer: Buffer.from(made.bytes),
  });
  expect(new URL(page.url()).pathname).toMatch(/^\/review\/[^/]+$/);

  await startPicking(page, 'total_amount');
  const total = page.locator('[data-page-index="0"] .pick-word[data-text="1,234.56"]').first();
  await total.click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  await expectPolygonOver(page, 'total_amount', total);
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

  // A typo in the total: the page does not show it, and the value says so.
  await valueOf(page, 'total_amount').fill('1243.56');
  await expect(page.getByRole('alert').filter({ hasText: 'not on page 1' })).toContainText('1243.56');
  // The text layer was read in the browser: the app server was not asked for words.
  expect(asked).toEqual([]);
});

test('on an upload’s photo, a click picks a word OCR read on the app server, with its region', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const made = await makeInvoicePdf();
  const scan = await rasterise(made, 150);
  const png = scan.pages[0];
  if (!png) throw new Error('no page rasterised');
  const asked = wordsRequests(page);
  await openReview(page, { name: `${uniqueName('job-pick-photo')}.png`, mimeType: 'image/png', buffer: png });
  expect(new URL(page.url()).pathname).toMatch(/^\/review\/[^/]+$/);

  await startPicking(page, 'total_amount');
  const total = page.locator('[data-page-index="0"] .pick-word[data-text*="234"]').first();
  await total.click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  await expectPolygonOver(page, 'total_amount', total);
  const drawn = made.words['1,234.56'];
  if (!drawn) throw new Error('no word drawn');
  expectNear(
    await boxWithin(polygonOf(page.locator('[data-page-index="0"]'), 'total_amount').first(), pageBox(page)),
    drawn,
    0.03,
    'total_amount over the scanned total',
  );
  // The photo's words came from the app server, found by the document's id.
  const documentId = new URL(page.url()).pathname.split('/').pop() ?? '';
  expect(asked).toEqual([`/api/review/documents/${documentId}/pages/0/words`]);
});

test('on a v1 prediction of a photo taken sideways, a click picks the word as shown upright', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const made = await makeInvoicePdf();
  const upright = (await rasterise(made, 150)).pages[0];
  if (!upright) throw new Error('no page rasterised');
  // A quarter turn clockwise: the service finds the page must turn 270° to read upright.
  const photo = await sharp(upright).rotate(90).jpeg({ quality: 90 }).toBuffer();
  const asked = wordsRequests(page);
  await page.goto('/');
  await page.getByRole('radio', { name: 'Prediction API (v1)' }).check();
  await expect(page.getByLabel('Product name')).toHaveValue('invoices');
  await page.getByRole('radio', { name: /^Asynchronous/ }).check();
  await page.getByLabel('Document', { exact: true }).setInputFiles({
    name: `${uniqueName('v1-pick-sideways')}.jpg`,
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
  // The prediction's page becomes the kept document's one review once its result is in.
  await expect(page).toHaveURL(/\/review\/[^/?]+$/, { timeout: 90_000 });
  await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true', {
    timeout: 30_000,
  });

  await startPicking(page, 'total_amount');
  const total = page.locator('[data-page-index="0"] .pick-word[data-text*="234"]').first();
  // Upright on screen: the word runs across, not down.
  const shown = await boxWithin(total, pageBox(page));
  expect(shown.x1 - shown.x0).toBeGreaterThan(shown.y1 - shown.y0);
  await total.click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  await expectPolygonOver(page, 'total_amount', total);
  const drawn = made.words['1,234.56'];
  if (!drawn) throw new Error('no word drawn');
  expectNear(
    await boxWithin(polygonOf(page.locator('[data-page-index="0"]'), 'total_amount').first(), pageBox(page)),
    drawn,
    0.03,
    'total_amount over the photographed total, upright',
  );
  // The words of the kept photo, found by the document's id.
  const documentId = new URL(page.url()).pathname.split('/').pop() ?? '';
  expect(asked).toEqual([`/api/review/documents/${documentId}/pages/0/words`]);
});
