/**
 * Checks that can be trusted (issue 21), in real Chromium against the real servers: a value picked
 * with a box from the page never warns; Enter on a typed value that is not on the page shows the
 * warning first and only the second Enter confirms it anyway; confirming a document whose values at
 * Medium, Low or no confidence nobody checked asks once ("N values not checked: Review them / Confirm
 * anyway"), "Review them" selects the first, the answer is in the history; an admin makes the model's
 * gate strict on the Rules page, and then confirming is not offered (nor taken by the server: 422-014).
 */
import { restoring } from './support/restoring';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { keepScreenshot } from './support/artifacts';
import { makeInvoicePdf } from './support/make-invoice';
import { valueOf } from './support/review-journey';
import { csrfHeader, enqueuePdf, uniqueName } from './support/team';
import { INVOICE_MODEL_ID } from './support/upload-steps';

const GATE = `/api/review/models/v2/${encodeURIComponent(INVOICE_MODEL_ID)}/unchecked-gate`;

/** A generated invoice sent through the upload route; resolves with its queue document once waiting. */
async function queuedInvoice(page: Page, prefix: string): Promise<string> {
  const made = await makeInvoicePdf();
  const batch = uniqueName(prefix);
  await enqueuePdf(page.request, { name: `${batch}.pdf`, buffer: Buffer.from(made.bytes) }, INVOICE_MODEL_ID);
  let id = '';
  await expect(async () => {
    const listed = await page.request.get(`/api/review/documents?q=${batch}&state=to_review`);
    const { documents } = (await listed.json()) as { documents: { id: string }[] };
    expect(documents).toHaveLength(1);
    id = documents[0]?.id ?? '';
  }).toPass({ timeout: 90_000 });
  return id;
}

async function openHeld(page: Page, id: string): Promise<void> {
  await page.goto(`/review/${id}`);
  await page.getByRole('button', { name: 'Review this document' }).click();
  await expect(page.locator('[data-page-index="0"]')).toHaveAttribute('data-rendered', 'true', {
    timeout: 60_000,
  });
}

const word = (page: Page, text: string): Locator =>
  page.locator(`[data-page-index="0"] .pick-word[data-text="${text}"]`).first();

/** Drags a box on the page round the words, a few pixels wider. */
async function dragBoxRound(page: Page, words: Locator[]): Promise<void> {
  const boxes = await Promise.all(words.map((w) => w.boundingBox()));
  if (boxes.some((b) => b === null)) throw new Error('a word is not on screen');
  const all = boxes.filter((b) => b !== null);
  const x0 = Math.min(...all.map((b) => b.x)) - 4;
  const y0 = Math.min(...all.map((b) => b.y)) - 4;
  const x1 = Math.max(...all.map((b) => b.x + b.width)) + 4;
  const y1 = Math.max(...all.map((b) => b.y + b.height)) + 4;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
  await page.mouse.move(x1, y1, { steps: 4 });
  await page.mouse.up();
}

test('a value picked with a box never warns; Enter on a typed value not on the page warns first, the second confirms', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openHeld(page, await queuedInvoice(page, 'checks-enter'));

  // A box round the supplier's name (three words, bold, above the rest): taken as read, never warned.
  await valueOf(page, 'supplier_name').focus();
  await page.getByRole('button', { name: 'Pick from page' }).click();
  await expect(page.locator('[data-page-index="0"] .pick-layer')).toHaveAttribute('data-words', /[1-9]/, {
    timeout: 30_000,
  });
  await dragBoxRound(page, [word(page, 'ACME'), word(page, 'Ltd')]);
  await expect(valueOf(page, 'supplier_name')).toHaveValue('ACME Supplies Ltd');
  await page.keyboard.press('Escape');
  const row = page.locator('li[data-field-path="supplier_name"]');
  await expect(row).toContainText('picked on the page');
  await expect(row.getByRole('alert')).toHaveCount(0);

  // A typo in the total: warned under it, with the printed total offered.
  const total = valueOf(page, 'total_amount');
  await total.fill('1243.56');
  const warning = page.getByRole('alert').filter({ hasText: 'is not on page 1' });
  await expect(warning).toContainText('1243.56 is not on page 1');
  await expect(warning.getByRole('button', { name: /^Use 1,234\.56 \(page 1\)/ })).toBeVisible();
  // The first Enter does not take it: the warning says what a second does, the editor keeps the focus.
  await total.press('Enter');
  await expect(warning).toContainText('Press Enter again to confirm it anyway');
  await expect(total).toBeFocused();
  await keepScreenshot(page, 'checks-enter-warned');
  // The second confirms it anyway, and says so.
  await total.press('Enter');
  await expect(page.getByText('Confirmed although it is not on page 1.')).toBeVisible();
  await expect(warning).toHaveCount(0);
  await expect(page.getByText('All changes saved')).toBeVisible({ timeout: 10_000 });
});

test('confirming with values nobody checked asks once; Review them selects the first; the answer is in the history', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const id = await queuedInvoice(page, 'checks-gate');
  await openHeld(page, id);

  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  const gate = page.getByRole('dialog', { name: /values? not checked$/ });
  await expect(gate).toBeVisible();
  const title = (await gate.getByRole('heading').textContent()) ?? '';
  const n = Number(/^(\d+)/.exec(title)?.[1] ?? Number.NaN);
  expect(n).toBeGreaterThan(0);
  await expect(gate.getByRole('button', { name: 'Review them' })).toBeFocused();
  // The values by their titles, as their rows name them (the model's data schema), the path on hover.
  await expect(gate.getByTitle('supplier_name')).toHaveText('Supplier Name');
  await keepScreenshot(page, 'checks-unchecked-gate');
  await page.setViewportSize({ width: 1280, height: 720 });
  await keepScreenshot(page, 'checks-unchecked-gate-1280');
  await page.setViewportSize({ width: 1440, height: 900 });
  await keepScreenshot(page, 'checks-unchecked-gate-1440');

  // Review them: back to the values, the first unchecked one selected (in the URL too).
  await gate.getByRole('button', { name: 'Review them' }).click();
  await expect(gate).toBeHidden();
  await expect(page).toHaveURL(/[?&]field=/);
  expect(new URL(page.url()).searchParams.get('field')).not.toBe('');

  // Ctrl+Enter ("Confirm and next") asks the same; Confirm anyway confirms (and moves on), and the
  // history keeps the count and the answer.
  await page.keyboard.press('Control+Enter');
  await expect(gate).toBeVisible();
  await gate.getByRole('button', { name: 'Confirm anyway' }).click();
  await expect
    .poll(
      async () => {
        const timeline = (await (await page.request.get(`/api/review/documents/${id}/timeline`)).json()) as {
          events: { kind: string; data: Record<string, unknown> | null }[];
        };
        return timeline.events.at(-1);
      },
      { timeout: 15_000 },
    )
    .toMatchObject({ kind: 'confirmed', data: { uncheckedConfirmed: n, unchecked: n } });
  await page.goto(`/review/${id}`);
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(
    page.getByText(/Confirmed it, with \d+ values? not checked \(asked, and confirmed anyway\)/),
  ).toBeVisible();
});

test('a strict gate, set by an admin on the Rules page, offers no Confirm anyway, and the server refuses it too', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const id = await queuedInvoice(page, 'checks-strict');
  await restoring(
    async () => {
      await page.goto(`/rules/v2/${encodeURIComponent(INVOICE_MODEL_ID)}`);
      const strict = page.getByRole('checkbox', { name: /^Strict/ });
      await strict.check();
      await expect(strict).toBeChecked();
      await expect(page.getByText('Operators must check each before confirming.')).toBeVisible();
      await keepScreenshot(page, 'checks-strict-gate-rules');
      expect(((await (await page.request.get(GATE)).json()) as { strict: boolean }).strict).toBe(true);

      await openHeld(page, id);
      await page.getByRole('button', { name: /^Confirm and next/ }).click();
      const gate = page.getByRole('dialog', { name: /values? not checked$/ });
      await expect(gate).toContainText('This model needs every such value checked');
      await expect(gate.getByRole('button', { name: 'Confirm anyway' })).toHaveCount(0);
      await keepScreenshot(page, 'checks-strict-gate-review');
      await gate.getByRole('button', { name: 'Review them' }).click();

      // The server refuses a confirmation that goes round the review, naming the values.
      const held = (await (await page.request.get(`/api/review/documents/${id}`)).json()) as {
        document: { version: number };
      };
      const refused = await page.request.post(`/api/review/documents/${id}/confirm`, {
        headers: await csrfHeader(page.request),
        data: { version: held.document.version, uncheckedConfirmed: 1 },
      });
      expect(refused.status()).toBe(422);
      const problem = (await refused.json()) as { code: string; errors: { pointer: string }[] };
      expect(problem.code).toBe('422-014');
      expect(problem.errors.length).toBeGreaterThan(0);
      expect(problem.errors[0]?.pointer).toMatch(/^#\/fields\//);
    },
    async () => {
      const reset = await page.request.put(GATE, {
        headers: await csrfHeader(page.request),
        data: { strict: false },
      });
      expect(reset.status()).toBe(200);
    },
  );
});
