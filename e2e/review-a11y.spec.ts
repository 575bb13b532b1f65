import { expect, test } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { openInvoiceReview } from './support/review-journey';

test('the review view has no serious axe-core violations, in each panel', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openInvoiceReview(page);
  await expectAccessible(page, 'review-values');
  await keepScreenshot(page, 'review-values');

  await page.getByRole('checkbox', { name: /Needs review only/ }).check();
  await expect(page.getByRole('list', { name: 'Fields needing review' })).toBeVisible();
  await expectAccessible(page, 'review-needs-review');
  await keepScreenshot(page, 'review-needs-review');
  await page.getByRole('checkbox', { name: /Needs review only/ }).uncheck();

  for (const [tab, name] of [
    ['Raw text', 'review-raw-text-panel'],
    ['Details', 'review-details'],
    ['JSON', 'review-json'],
  ] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    await expectAccessible(page, name);
    await keepScreenshot(page, name);
  }

  // The response JSON (on the tab open now) is copied to the clipboard as shown.
  await page.getByRole('button', { name: 'Copy the JSON' }).click();
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(
    await page
      .getByRole('region', { name: 'Response JSON' })
      .or(page.getByLabel('Response JSON'))
      .first()
      .textContent(),
  );
  expect((JSON.parse(copied) as { inference: { file: { name: string } } }).inference.file.name).toBe(
    'invoice-0077.pdf',
  );

  await page.getByRole('tab', { name: 'Values' }).click();
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expectAccessible(page, 'review-help');
  await page.keyboard.press('Escape');
});
