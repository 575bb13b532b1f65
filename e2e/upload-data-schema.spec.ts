import { expect, test } from '@playwright/test';
import { valueOf } from './support/review-journey';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { invoicePdfFile } from './support/upload-documents';
import { chooseFiles, extract, openUploadForm } from './support/upload-steps';

/** Two fields of our own in place of the model's: a renamed invoice number and a renamed total. */
const REPLACEMENT = {
  replace: {
    fields: [
      {
        name: 'reference',
        title: 'Invoice Number',
        type: 'string',
        is_array: false,
        description: 'The identifier of the invoice.',
        guidelines: 'Labelled "Invoice number".',
      },
      {
        name: 'grand_total',
        title: 'Total',
        type: 'number',
        is_array: false,
        description: 'The total to pay.',
        guidelines: 'Labelled "Total".',
      },
    ],
  },
};

test('a data schema written in the editor, checked as it is typed, replaces the fields of the result', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openUploadForm(page);
  await page.getByLabel('Replace the fields to extract, for these files only').check();

  // It starts from the model's own schema, which the reference service gives.
  const editor = page.getByLabel('Data schema (JSON)');
  await expect(editor).toHaveValue(/"name": "invoice_number"/);
  await expect(page.getByRole('button', { name: 'Start from the model’s schema' })).toBeVisible();
  await page.getByRole('button', { name: 'Start from the invoice template' }).click();
  await expect(editor).toHaveValue(/"name": "line_items"/);
  await expect(page.getByText(/^Valid: 8 fields/)).toBeVisible();

  // Checked as it is typed: a field name with a capital and a space, on its line.
  await editor.fill(JSON.stringify(REPLACEMENT, null, 2));
  await expect(page.getByText(/^Valid: 2 fields/)).toBeVisible();
  await editor.press('Control+Home');
  for (let i = 0; i < 4; i++) await editor.press('ArrowDown');
  await editor.press('End');
  await editor.press('ArrowLeft'); // before the closing quote of "reference"
  await editor.press('ArrowLeft');
  await editor.pressSequentially(' X');
  const problems = page.getByRole('list', { name: 'Data schema problems' });
  await expect(problems.getByRole('button')).toHaveCount(1);
  await expect(problems.getByRole('button').first()).toContainText('Line 5, column 9');
  await expect(problems.getByRole('button').first()).toContainText('replace.fields[0].name');
  await expect(problems.getByRole('button').first()).toContainText('lowercase letters');
  await expect(page.locator('[data-line="5"]')).toHaveAttribute('data-invalid', 'true');
  await expect(editor).toHaveAttribute('aria-invalid', 'true');
  await keepScreenshot(page, 'data-schema-problem', { fullPage: true });
  await expectAccessible(page, 'data-schema-editor');

  // Choosing the problem puts the caret on it.
  await editor.press('Control+End');
  await problems.getByRole('button').first().click();
  await expect(editor).toBeFocused();
  const caret = await editor.evaluate(
    (el: HTMLTextAreaElement) => el.value.slice(0, el.selectionStart).split('\n').length,
  );
  expect(caret).toBe(5);

  // A syntax error is placed exactly too, and nothing is sent while it stands.
  await editor.fill(JSON.stringify(REPLACEMENT, null, 2).replace(/\n {2}\}\n\}$/, ',\n  }\n}'));
  await expect(problems.getByRole('button').first()).toContainText('trailing comma');
  await chooseFiles(page, [
    await invoicePdfFile('replaced.pdf', { invoiceNumber: 'INV-R-0042', total: '987.65' }),
  ]);
  await extract(page);
  await expect(page.getByText('Correct the data schema first.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // Corrected: sent, and the result has exactly the replaced fields.
  await editor.fill(JSON.stringify(REPLACEMENT, null, 2));
  await extract(page);
  await expect(page).toHaveURL(/\/review\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  await expect(valueOf(page, 'reference')).toHaveValue('INV-R-0042', {
    timeout: 45_000,
  });
  await expect(valueOf(page, 'grand_total')).toHaveValue('987.65');
  await expect(valueOf(page, 'invoice_number')).toHaveCount(0);
  await keepScreenshot(page, 'data-schema-result', { fullPage: true });
});
