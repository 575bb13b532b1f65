/**
 * A photo taken sideways, sent to the v2 API (whose result says nothing of a page's turn), is shown
 * upright as its text says it is turned (the app server's OCR finds the turn), in real Chromium
 * against the real servers: the page stands as the invoice was printed, its words run across, and a
 * value picked on it lands on the word, on screen and after a reload (the pick kept in the photo's own
 * frame and turned with the page again).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { keepScreenshot } from './support/artifacts';
import { makeInvoicePdf } from './support/make-invoice';
import { valueOf } from './support/review-journey';
import { uniqueName } from './support/team';
import { rasterise } from './support/viewer-documents';
import { boxWithin, expectNear, openReview, polygonOf } from './support/viewer-review';

const pageBox = (page: Page): Locator => page.locator('[data-page-index="0"] .page-box');

async function expectUpright(page: Page) {
  // An A4 invoice stands taller than wide once turned upright (the photo itself is wider than tall).
  await expect
    .poll(
      async () => {
        const box = await pageBox(page).boundingBox();
        return box ? box.height / box.width : 0;
      },
      { timeout: 90_000 },
    )
    .toBeGreaterThan(1.2);
}

test('a v2 photo taken sideways is shown upright; a value picked on it lands on its word', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // Signed in before the photo is made (drawing it takes the test's cores for a while on a busy machine).
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New extraction' })).toBeVisible({ timeout: 30_000 });
  const made = await makeInvoicePdf();
  const upright = (await rasterise(made, 150)).pages[0];
  if (!upright) throw new Error('no page rasterised');
  // Taken with the phone held across: the picture turned a quarter clockwise, no EXIF orientation.
  const photo = await sharp(upright).rotate(90).jpeg({ quality: 90 }).toBuffer();
  expect((await sharp(photo).metadata()).orientation ?? 1).toBe(1);
  await openReview(page, {
    name: `${uniqueName('photo-sideways')}.jpg`,
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  // The upload's one review: the document's page once its result is in (issue 21).
  expect(new URL(page.url()).pathname).toMatch(/^\/review\/[^/]+$/);
  await expectUpright(page);
  await keepScreenshot(page, 'photo-upright');

  await expect(valueOf(page, 'total_amount')).toBeVisible({ timeout: 60_000 });
  await valueOf(page, 'total_amount').focus();
  await page.getByRole('button', { name: 'Pick from page' }).click();
  await expect(page.locator('[data-page-index="0"] .pick-layer')).toHaveAttribute('data-words', /[1-9]/, {
    timeout: 60_000,
  });
  const total = page.locator('[data-page-index="0"] .pick-word[data-text*="234"]').first();
  // Upright on screen: the word runs across, not up.
  const shown = await boxWithin(total, pageBox(page));
  expect(shown.x1 - shown.x0).toBeGreaterThan(shown.y1 - shown.y0);
  const drawn = made.words['1,234.56'];
  if (!drawn) throw new Error('no word drawn');
  expectNear(shown, drawn, 0.03, 'the total as shown, where the invoice prints it');
  await total.click();
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56');
  const polygon = () => polygonOf(page.locator('[data-page-index="0"]'), 'total_amount').first();
  expectNear(await boxWithin(polygon(), pageBox(page)), drawn, 0.03, 'total_amount over the total, upright');

  // Kept in the photo's own frame: after a reload the page is turned again and the region with it.
  await page.keyboard.press('Escape');
  await page.reload();
  await expectUpright(page);
  await expect(valueOf(page, 'total_amount')).toHaveValue('1234.56', { timeout: 60_000 });
  await expect
    .poll(async () => (await polygon().count()) > 0 && (await boxWithin(polygon(), pageBox(page))), {
      timeout: 30_000,
    })
    .toBeTruthy();
  expectNear(await boxWithin(polygon(), pageBox(page)), drawn, 0.03, 'total_amount after a reload');
});
