import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { REVIEW_INVOICE } from './support/review-invoice';
import { openInvoiceReview } from './support/review-journey';

test('the raw text is searched: matches marked, listed, and a match shows its page', async ({ page }) => {
  await openInvoiceReview(page);
  await page.getByRole('tab', { name: 'Raw text' }).click();

  const search = page.getByRole('searchbox', { name: 'Search the raw text' });
  await search.fill('M8');
  await expect(page.getByText('3 matches.')).toBeVisible();
  const marks = page.getByRole('tabpanel').locator('pre mark');
  await expect(marks).toHaveCount(3);
  await expect(marks.first()).toHaveText('M8');

  // A phrase across any white space, on page 2; its match shows page 2 in the viewer.
  await search.fill('within   thirty days');
  await expect(page.getByText('1 match.')).toBeVisible();
  const match = page.getByRole('list', { name: 'Matches' }).getByRole('button');
  await expect(match).toContainText('p. 2');
  await match.click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Text of page 2' }).locator('mark')).toHaveText(
    'within thirty days',
  );

  // Text is text: markup in a query is searched for, never rendered.
  await search.fill('<b>');
  await expect(page.getByText('No match.')).toBeVisible();
  expect(REVIEW_INVOICE.terms).toContain('within thirty days');
  await keepScreenshot(page, 'review-raw-text');
});
