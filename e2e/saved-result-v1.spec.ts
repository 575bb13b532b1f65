import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { boxWithin, expectNear, pageSlot, polygonOf, type Box } from './support/viewer-review';

// Conformance: the hosted service's own recorded answers for one photo of receipts turned four ways
// (FIXTURES_DIR overrides where they are). Each is opened as a saved result with its photo.
const folder = path.join(fixturesDir, 'v1/products/multi_receipts_detector');

async function openSaved(page: Page, photo: string, response: string) {
  await page.goto('/open');
  await page.getByLabel('Document').setInputFiles({
    name: photo,
    mimeType: 'image/jpeg',
    buffer: await readFile(path.join(folder, photo)),
  });
  await page.getByLabel('Result JSON').setInputFiles({
    name: response,
    mimeType: 'application/json',
    buffer: await readFile(path.join(folder, 'response_v1', response)),
  });
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page).toHaveURL(/\/saved\/v1-/);
  const slot = pageSlot(page, 0, 1);
  await expect(slot).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  const boxes: Box[] = [];
  for (let i = 0; i < 3; i++) boxes.push(await boxWithin(polygonOf(slot, `receipts[${i}]`), slot));
  // The page as shown, polygons hidden, small and grey: enough to tell a turned photo from an upright one.
  const png = await slot.screenshot({ style: '.field-overlay, .field-highlight { visibility: hidden; }' });
  const picture = await sharp(png).greyscale().resize(48, 48, { fit: 'fill' }).raw().toBuffer();
  return { boxes, picture, slot };
}

const meanDifference = (a: Buffer, b: Buffer) =>
  a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] ?? 0)), 0) / a.length;

test('a v1 photo stored turned is shown upright, its receipts’ polygons where they are on the upright photo', async ({
  page,
}) => {
  const serviceCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/v[12]\//.test(new URL(request.url()).pathname)) serviceCalls.push(request.url());
  });

  const upright = await openSaved(page, 'default_sample.jpg', 'complete.json');
  for (const [photo, response] of [
    ['default_sample_90.jpg', 'complete_90.json'],
    ['default_sample_180.jpg', 'complete_180.json'],
    ['default_sample_270.jpg', 'complete_270.json'],
  ] as const) {
    const turned = await openSaved(page, photo, response);
    // The page is turned upright: it looks like the upright photo...
    expect(meanDifference(turned.picture, upright.picture), `${photo} shown upright`).toBeLessThan(25);
    // ...and each receipt's polygon is where it is on the upright photo.
    turned.boxes.forEach((box, i) => {
      const expected = upright.boxes[i];
      if (!expected) throw new Error('no upright box');
      expectNear(box, expected, 0.02, `${photo} receipts[${i}]`);
    });
    if (photo === 'default_sample_90.jpg') await keepScreenshot(page, 'saved-v1-turned-90');
  }
  await expectAccessible(page, 'saved-v1-review');
  expect(serviceCalls, 'requests to the extraction API while opening saved results').toEqual([]);
});
