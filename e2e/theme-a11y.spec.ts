/**
 * The dark theme (issue 21, "Comfort"): it follows the system, a choice made with the header's toggle
 * is remembered by the browser, and it is in place before the first paint (no flash of light on a
 * dark system). Every page is axe-clean, colour contrast included, in both themes; the document's
 * page itself stays as printed, its polygons visible on it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { makeInvoicePdf } from './support/make-invoice';
import { openInvoiceReview, valueOf } from './support/review-journey';
import { NOBODY } from './support/team';
import { pageSlot } from './support/viewer-review';

test.use({ viewport: { width: 1280, height: 720 } });

const THEMES = ['light', 'dark'] as const;

/** Whether <html> was dark when the document's DOM was complete (before the app's code ran). */
async function darkAtDomContentLoaded(page: Page): Promise<{ dark: boolean; background: string }> {
  return page.evaluate(
    () => (window as unknown as { __themeAtDcl: { dark: boolean; background: string } }).__themeAtDcl,
  );
}

function recordThemeAtDomContentLoaded(page: Page) {
  return page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { __themeAtDcl: object }).__themeAtDcl = {
        dark: document.documentElement.classList.contains('dark'),
        background: getComputedStyle(document.body).backgroundColor,
      };
    });
  });
}

/** The body's ground is dark: every channel of its colour low (the light ground is slate-50). */
function isDarkColour(css: string): boolean {
  const probe = /^oklch\(([\d.]+)/.exec(css) ?? /^rgba?\((\d+)/.exec(css);
  if (!probe?.[1]) throw new Error(`unreadable colour ${css}`);
  const value = Number(probe[1]);
  return css.startsWith('oklch') ? value < 0.5 : value < 128;
}

test('the theme follows the system before the first paint, and a choice is remembered across reloads', async ({
  browser,
}) => {
  // Nobody signed in: the theme is the browser's, and the journeys' shared session stays untouched.
  const context = await browser.newContext({
    storageState: NOBODY,
    colorScheme: 'dark',
    viewport: { width: 1280, height: 720 },
  });
  const page = await context.newPage();
  await recordThemeAtDomContentLoaded(page);

  await page.goto('/sign-in');
  let first = await darkAtDomContentLoaded(page);
  expect(first.dark, 'dark at DOMContentLoaded on a dark system').toBe(true);
  expect(isDarkColour(first.background), `the ground at DOMContentLoaded: ${first.background}`).toBe(true);
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();

  // Light, chosen on a dark system: kept by this browser, in place before the first paint again.
  await theme.getByTitle('Light theme').click();
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  await page.reload();
  first = await darkAtDomContentLoaded(page);
  expect(first.dark, 'Light chosen: not dark at DOMContentLoaded').toBe(false);
  expect(isDarkColour(first.background)).toBe(false);
  await expect(theme.getByRole('radio', { name: 'Light' })).toBeChecked();

  // The system turning light then dark changes nothing while Light is chosen.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);

  // Dark, on a light system, by the keyboard.
  await page.emulateMedia({ colorScheme: 'light' });
  await theme.getByRole('radio', { name: 'Light' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(theme.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  expect((await darkAtDomContentLoaded(page)).dark, 'Dark chosen on a light system').toBe(true);

  // System again: the choice is forgotten and the page follows the system, live.
  await theme.getByTitle('System theme').click();
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await page.reload();
  expect((await darkAtDomContentLoaded(page)).dark).toBe(true);
  await context.close();
});

/** A page of the app, opened, waited for, then scanned and pictured in each theme. */
async function inBothThemes(
  page: Page,
  name: string,
  ready: () => Promise<void>,
  screenshot: { fullPage?: boolean } = {},
) {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    await ready();
    await expectAccessible(page, `${name}-${theme}`);
    await keepScreenshot(page, `${name}-${theme}`, screenshot);
  }
}

async function openPage(page: Page, address: string, heading: string | RegExp) {
  await page.goto(address);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 30_000 });
}

test('every page is axe-clean, colour contrast included, in the light and the dark theme', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);

  // Signed out: the sign-in form.
  const visitor = await browser.newContext({ storageState: NOBODY, viewport: { width: 1280, height: 720 } });
  const signIn = await visitor.newPage();
  await openPage(signIn, '/sign-in', 'Sign in');
  await inBothThemes(signIn, 'sign-in', async () => {
    await expect(signIn.getByLabel('Name')).toBeVisible();
  });
  await visitor.close();

  // A v2 document: uploaded, reviewed on its one page (the queue's document, held by its uploader).
  const jobAddress = await openInvoiceReview(page, 'theme-invoice.pdf');
  await inBothThemes(page, 'review-v2', async () => {
    await expect(valueOf(page, 'invoice_number')).toBeVisible();
    await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true');
  });
  // The document's page is not themed: white under the dark theme too, polygons drawn on it.
  const slot = page.locator('.page-slot').first();
  expect(await slot.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
  await expect(page.locator('.field-polygon').first()).toBeVisible();

  await openPage(page, '/', 'New extraction');
  await inBothThemes(page, 'upload', async () => {
    await expect(page.getByRole('button', { name: 'Extract' })).toBeVisible();
  });

  await page.goto('/uploads');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await inBothThemes(page, 'uploads', async () => {
    await expect(page.getByText('theme-invoice.pdf').first()).toBeVisible();
  });

  await openPage(page, '/queue', 'Team queue');
  await inBothThemes(page, 'queue', async () => {
    await expect(page.getByRole('table').first()).toBeVisible({ timeout: 30_000 });
  });

  // The upload's one review is the queue's document, taken by its uploader (issue 21).
  expect(jobAddress).toMatch(/^\/review\//);

  // A v1 document: a synchronous prediction from the upload form.
  const doc = await makeInvoicePdf([
    { label: 'Invoice number:', value: 'INV-THEME-1', y: 680 },
    { label: 'Total:', value: '42.00', y: 300 },
  ]);
  await page.goto('/');
  await page.getByRole('radio', { name: 'Prediction API (v1)' }).check();
  await page.getByRole('radio', { name: /^Synchronous/ }).check();
  await page.getByLabel('Document', { exact: true }).setInputFiles({
    name: 'theme-v1.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(doc.bytes),
  });
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  await inBothThemes(page, 'review-v1', async () => {
    await expect(valueOf(page, 'invoice_number')).toBeVisible({ timeout: 30_000 });
    await expect(pageSlot(page, 0, 1)).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  });

  // A saved result (a v1 photo of receipts and the hosted service's answer), opened from files.
  await openPage(page, '/open', 'Open a saved result');
  await inBothThemes(page, 'open-saved', async () => {
    await expect(page.getByLabel('Result JSON')).toBeVisible();
  });
  const folder = path.join(fixturesDir, 'v1/products/multi_receipts_detector');
  await page.getByLabel('Document').setInputFiles({
    name: 'default_sample.jpg',
    mimeType: 'image/jpeg',
    buffer: await readFile(path.join(folder, 'default_sample.jpg')),
  });
  await page.getByLabel('Result JSON').setInputFiles({
    name: 'complete.json',
    mimeType: 'application/json',
    buffer: await readFile(path.join(folder, 'response_v1', 'complete.json')),
  });
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page).toHaveURL(/\/saved\/v1-/);
  await inBothThemes(page, 'saved', async () => {
    await expect(pageSlot(page, 0, 1)).toHaveAttribute('data-rendered', 'true', { timeout: 30_000 });
  });

  // The admin's pages.
  for (const [address, heading, name] of [
    ['/rules', 'Rules', 'rules'],
    ['/exports', 'Exports', 'exports'],
    ['/operators', 'Operators', 'operators'],
    ['/deliveries', 'Deliveries', 'deliveries'],
    ['/analytics', 'Where time goes', 'analytics'],
  ] as const) {
    await openPage(page, address, heading);
    // The whole page: the analytics' charts are below the fold.
    await inBothThemes(
      page,
      name,
      async () => {
        await expect(page.getByRole('main')).toBeVisible();
      },
      { fullPage: true },
    );
  }
});
