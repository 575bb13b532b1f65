import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { REVIEW_INVOICE } from './support/review-invoice';
import { openInvoiceReview, valueOf } from './support/review-journey';

/** A value's editor in the grid, by its path. */
const editorOf = (grid: Locator, path: string) => valueOf(grid, path);
/** A value's cell in the grid, by its path (where the grid's keys move). */
const cellOf = (grid: Locator, path: string) => grid.locator(`td[data-field-path="${path}"]`);

/** The texts that do not fit their box (cut off), among the grid's headers and editors. */
async function cutOff(grid: Locator): Promise<string[]> {
  return grid.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>('th, input[type="text"]')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) =>
        el instanceof HTMLInputElement ? `${el.getAttribute('aria-label')}: ${el.value}` : el.innerText,
      ),
  );
}

async function expectAboveGrid(page: Page, grid: Locator, row: string) {
  const region = page.locator(`.field-highlight .row-region[data-row="${row}"]`).first();
  await expect(region).toBeInViewport();
  await expect
    .poll(async () => {
      const [r, g] = await Promise.all([region.boundingBox(), grid.boundingBox()]);
      return r != null && g != null && r.y + r.height <= g.y;
    }, `${row}'s region on the page, above the grid`)
    .toBe(true);
}

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the line items open as a full-width grid: every column readable, rows added, duplicated and removed with the keys, and saved', async ({
      page,
    }) => {
      // Two passes through the grid and a reload: more than one journey's minute on a busy machine.
      test.setTimeout(180_000);
      const size = `${viewport.width}x${viewport.height}`;
      await openInvoiceReview(page, `grid-${size}.pdf`);
      const opener = page.getByRole('button', { name: 'Open as grid: Line Items' });
      await opener.click();
      const grid = page.getByRole('dialog', { name: /^Line Items/ });
      await expect(grid).toBeVisible();
      // Over the whole width of the window, the page still in view above it.
      const box = await grid.boundingBox();
      expect(box?.width).toBe(viewport.width);
      expect(box?.y).toBeGreaterThan(viewport.height / 3);

      // Every column by its title, the API name on hover; and no value is cut.
      const headers = grid.getByRole('columnheader');
      await expect(headers).toHaveText([
        '#',
        'Description',
        'Product Code',
        'Quantity',
        'Unit of Measure',
        'Unit Price',
        'Tax Rate',
        'Tax Amount',
        'Total Price',
        'Row actions',
      ]);
      for (const header of await headers.all()) await expect(header).toBeVisible();
      await expect(grid.getByRole('columnheader', { name: 'Unit Price' })).toHaveAttribute(
        'title',
        'unit_price',
      );
      await expect(editorOf(grid, 'line_items[1].description')).toHaveValue(
        REVIEW_INVOICE.rows[1]?.description ?? '',
      );
      expect(await cutOff(grid)).toEqual([]);

      // The keys: the grid opens on the first cell; arrows move, Enter edits, Enter again confirms.
      await expect(cellOf(grid, 'line_items[0].description')).toBeFocused();
      await page.keyboard.press('ArrowRight');
      await expect(grid.locator('td[data-grid-row="0"][data-grid-col="1"]')).toBeFocused();
      await page.keyboard.press('ArrowRight');
      await expect(cellOf(grid, 'line_items[0].quantity')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(cellOf(grid, 'line_items[1].quantity')).toBeFocused();
      // The selected row is boxed on the page, in the strip left above the grid.
      await expectAboveGrid(page, grid, 'line_items[1]');
      await keepScreenshot(page, `line-item-grid-row-${size}`);
      await page.keyboard.press('Enter');
      await expect(editorOf(grid, 'line_items[1].quantity')).toBeFocused();
      await page.keyboard.type('250');
      // 250 is printed nowhere on the page: the first Enter shows the warning (issue 21), the second
      // takes the value anyway and goes back to the cell.
      await page.keyboard.press('Enter');
      await expect(grid.getByRole('alert').filter({ hasText: 'Press Enter again' })).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(cellOf(grid, 'line_items[1].quantity')).toBeFocused();
      await expect(editorOf(grid, 'line_items[1].quantity')).toHaveValue('250');
      // In an editor, ↓ goes on to the editor below.
      await page.keyboard.press('Home');
      await expect(cellOf(grid, 'line_items[1].description')).toBeFocused();
      await page.keyboard.press('Enter');
      const long = 'Hex nuts M8, zinc plated, DIN 934 class 8, boxes of 200 pieces, delivered to dock 4';
      await editorOf(grid, 'line_items[1].description').fill(long);
      await page.keyboard.press('ArrowDown');
      await expect(editorOf(grid, 'line_items[2].description')).toBeFocused();
      // The long value widened its column: it is all in view, nothing cut.
      expect(await cutOff(grid)).toEqual([]);

      // Duplicate the first row: the copy comes last, its values the first row's, its editor focused.
      await grid.getByRole('button', { name: 'Duplicate Line Item 1' }).click();
      await expect(editorOf(grid, 'line_items[3].description')).toBeFocused();
      await expect(editorOf(grid, 'line_items[3].description')).toHaveValue(
        REVIEW_INVOICE.rows[0]?.description ?? '',
      );
      await expect(editorOf(grid, 'line_items[3].quantity')).toHaveValue('100');
      await page.keyboard.press('Escape');
      await expect(cellOf(grid, 'line_items[3].description')).toBeFocused();
      // Remove the third extracted row (restorable), and add one.
      await grid.getByRole('button', { name: 'Remove Line Item 3' }).click();
      await expect(grid.getByRole('button', { name: 'Restore Line Item 3' })).toBeVisible();
      await expect(editorOf(grid, 'line_items[2].description')).toBeDisabled();
      await grid.getByRole('button', { name: 'Add a row to Line Items' }).click();
      await expect(editorOf(grid, 'line_items[4].description')).toBeFocused();
      await page.keyboard.type('Delivery');
      // Not printed on the page either: warned first, taken at the second Enter.
      await page.keyboard.press('Enter');
      await expect(grid.getByRole('alert').filter({ hasText: 'Press Enter again' })).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(cellOf(grid, 'line_items[4].description')).toBeFocused();
      // Two values typed, four copied by the duplicate, one typed in the added row.
      await expect(page.getByText('7 values corrected, 2 items added, 1 item removed')).toBeVisible();
      expect(await cutOff(grid)).toEqual([]);
      await keepScreenshot(page, `line-item-grid-${size}`);
      await expectAccessible(page, `line-item-grid-${size}`);

      // Its top edge trades rows for page: ↓ on it gives the page more room.
      const before = (await grid.boundingBox())?.y ?? 0;
      const edge = grid.getByRole('separator', { name: /Grid height/ });
      await edge.focus();
      await page.keyboard.press('ArrowDown');
      await expect(edge).toHaveAttribute('aria-valuenow', '45');
      expect((await grid.boundingBox())?.y).toBeGreaterThan(before);

      // Escape on a cell closes the grid; the focus goes back to what opened it.
      await cellOf(grid, 'line_items[4].description').focus();
      await page.keyboard.press('Escape');
      await expect(grid).toBeHidden();
      await expect(opener).toBeFocused();

      // The corrections are the review's: kept across a reload, and shown again in the grid.
      await page.reload();
      await page.getByRole('button', { name: 'Open as grid: Line Items' }).click();
      await expect(editorOf(grid, 'line_items[1].description')).toHaveValue(long);
      await expect(editorOf(grid, 'line_items[1].quantity')).toHaveValue('250');
      await expect(editorOf(grid, 'line_items[3].description')).toHaveValue(
        REVIEW_INVOICE.rows[0]?.description ?? '',
      );
      await expect(editorOf(grid, 'line_items[4].description')).toHaveValue('Delivery');
      await expect(grid.getByRole('button', { name: 'Restore Line Item 3' })).toBeVisible();
    });
  });
}
