import { expect, test } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { openInvoiceReview, valueOf } from './support/review-journey';

test('a review without the mouse: next field to review, edit, confirm, pages, zoom, help', async ({
  page,
}) => {
  // The two Enters on each value not on the page (issue 21), and the upload's job followed before
  // its page becomes the review, make a long journey longer.
  test.setTimeout(120_000);
  await openInvoiceReview(page);
  // Start from nowhere in particular: the body.
  await page.locator('body').click({ position: { x: 1, y: 1 } });

  // n: the first value needing review (Medium, Low or unknown): due_date, Low, not printed.
  await page.keyboard.press('n');
  const current = page.locator('[aria-current="true"][data-field-path]');
  await expect(current).toHaveAttribute('data-field-path', 'due_date');
  await expect(current).toBeFocused();
  await expect(current).toContainText('Low');
  await expect(page).toHaveURL(/[?&]field=due_date/);

  // Enter edits (a date input: typed month, day, year), Enter again confirms and goes back to the row.
  await page.keyboard.press('Enter');
  await expect(valueOf(page, 'due_date')).toBeFocused();
  await page.keyboard.type('04132024');
  await expect(valueOf(page, 'due_date')).toHaveValue('2024-04-13');
  // Not printed on the page: the first Enter shows the warning, the second confirms anyway (issue 21).
  await page.keyboard.press('Enter');
  await expect(current.getByRole('alert')).toContainText('Press Enter again to confirm it anyway');
  await page.keyboard.press('Enter');
  await expect(current).toBeFocused();
  await expect(current).toContainText('edited');

  // n again: the next one still to check. While typing in it, j and n type letters, nothing moves.
  await page.keyboard.press('n');
  await expect(current).toHaveAttribute('data-field-path', 'supplier_name');
  await page.keyboard.press('Enter');
  const supplier = valueOf(page, 'supplier_name');
  await expect(supplier).toBeFocused();
  // Opened from the keyboard, the editor has the whole value selected (typing would replace it).
  expect(await supplier.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([
    0,
    'ACME Supplies Ltd'.length,
  ]);
  await page.keyboard.press('End');
  await page.keyboard.type(' jn');
  await expect(supplier).toHaveValue('ACME Supplies Ltd jn');
  await expect(current).toHaveAttribute('data-field-path', 'supplier_name');
  await page.keyboard.press('Enter');
  await expect(current.getByRole('alert')).toContainText('Press Enter again to confirm it anyway');
  await page.keyboard.press('Enter');
  await expect(current).toContainText('edited');

  // k and j move one field at a time, in the order shown.
  await page.keyboard.press('k');
  await expect(current).toHaveAttribute('data-field-path', 'due_date');
  await page.keyboard.press('j');
  await expect(current).toHaveAttribute('data-field-path', 'supplier_name');
  await page.keyboard.press('ArrowDown');
  await expect(current).toHaveAttribute('data-field-path', 'supplier_address.street_number');

  // Escape leaves an editor without confirming.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(page.locator('[aria-current="true"][data-field-path]')).toBeFocused();

  // Pages, zoom and rotation.
  await page.keyboard.press('PageDown');
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await page.keyboard.press('[');
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await page.keyboard.press(']');
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  await page.keyboard.press('+');
  await expect(page.getByText('125%')).toBeVisible();
  await page.keyboard.press('0');
  await expect(page.getByText('100%')).toBeVisible();
  await page.keyboard.press('r');

  // ?: the help overlay, a modal dialog that keeps the focus and closes on Escape.
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Next field needing review');
  // The line-item grid's keys too, all within the window (the dialog scrolls when it is short).
  const gridKeys = dialog.getByRole('table', { name: /In the line-item grid/ });
  await expect(gridKeys).toContainText('Enter or F2');
  await expect(gridKeys).toContainText('close the grid');
  const box = await dialog.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height).toBe(true);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await keepScreenshot(page, 'review-keyboard-help');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // What was typed with the keyboard is kept.
  await expect(valueOf(page, 'due_date')).toHaveValue('2024-04-13');
  await expect(page.getByText('2 values corrected')).toBeVisible();
});
