/**
 * Steps and measures of the viewer journeys: a document uploaded through the app's form and its
 * review opened; where things are on screen, in the page's normalised frame; whether ink lies under
 * a box. The expected places are computed here, independently of the viewer's geometry module.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { WordBox } from './make-invoice';

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Uploads one document with the invoice model and waits until its review shows page 1 drawn. */
export async function openReview(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New extraction' })).toBeVisible();
  // The models are listed before a file is sent (the seeded invoice model comes first).
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue(/.+/);
  await page.getByLabel('Document', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
  // The job's page becomes the document's one review once its result is in (issue 21).
  await expect(page).toHaveURL(/\/review\/[^/?]+$/, { timeout: 90_000 });
  await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true', {
    timeout: 60_000,
  });
}

/** A page's slot: the page as shown (turned with the view). */
export function pageSlot(page: Page, index: number, count: number): Locator {
  return page.getByRole('region', { name: `Page ${index + 1} of ${count}`, exact: true });
}

/** A field's polygon, by its path (its accessible name is the field's title, which values may share). */
export function polygonOf(scope: Page | Locator, path: string): Locator {
  return scope.locator(`polygon.field-polygon[data-field-path="${path}"]`);
}

async function screenBox(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box on screen`);
  return { x0: box.x, y0: box.y, x1: box.x + box.width, y1: box.y + box.height };
}

/** Where `target` is on screen, in units of `frame`'s box (0..1 from its top-left corner). */
export async function boxWithin(target: Locator, frame: Locator): Promise<Box> {
  const [t, f] = await Promise.all([screenBox(target), screenBox(frame)]);
  const w = f.x1 - f.x0;
  const h = f.y1 - f.y0;
  return { x0: (t.x0 - f.x0) / w, x1: (t.x1 - f.x0) / w, y0: (t.y0 - f.y0) / h, y1: (t.y1 - f.y0) / h };
}

/** A box of the upright page as it shows once the page is turned clockwise by `rotation`. */
export function turned(box: Box, rotation: 0 | 90 | 180 | 270): Box {
  switch (rotation) {
    case 0:
      return box;
    case 90:
      return { x0: 1 - box.y1, x1: 1 - box.y0, y0: box.x0, y1: box.x1 };
    case 180:
      return { x0: 1 - box.x1, x1: 1 - box.x0, y0: 1 - box.y1, y1: 1 - box.y0 };
    case 270:
      return { x0: box.y0, x1: box.y1, y0: 1 - box.x1, y1: 1 - box.x0 };
  }
}

export function expectNear(actual: Box, expected: Box | WordBox, tolerance: number, what: string): void {
  for (const edge of ['x0', 'x1', 'y0', 'y1'] as const) {
    expect(
      Math.abs(actual[edge] - expected[edge]),
      `${what}: ${edge} ${actual[edge]} vs ${expected[edge]}`,
    ).toBeLessThan(tolerance);
  }
}

/**
 * The share of inked (not white) pixels of the page under a polygon's box, the polygons themselves hidden: text
 * ink when the polygon lies over its word, next to nothing over blank paper.
 */
export async function inkUnder(page: Page, target: Locator): Promise<number> {
  const b = await screenBox(target);
  const clip = { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 };
  const png = await page.screenshot({
    clip,
    style: '.field-overlay, .field-highlight { visibility: hidden; }',
  });
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let dark = 0;
  // Anything clearly not paper: small text is drawn in greys, not black.
  for (const value of data) if (value < 200) dark++;
  return dark / (info.width * info.height);
}
