import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Confirms the document held (its "Confirm" button, or another confirm button named), answering the
 * unchecked-values gate (issue 21: "N values not checked: Review them / Confirm anyway") with
 * "Confirm anyway" when it asks. The gate decides on the click itself (the values are counted in the
 * browser, synchronously), so its question is there, or not, once the click is done. What follows
 * (an override reason, the next document) is the caller's; given as `then` (what shows when the
 * gate lets the confirmation through), the gate's question is waited for as an event rather than
 * looked for once.
 */
export async function confirmThroughGate(
  page: Page,
  button: 'Confirm' | 'Confirm…' | 'Confirm and next' = 'Confirm',
  then?: Locator,
): Promise<void> {
  await page
    .getByRole(
      'button',
      button === 'Confirm and next' ? { name: /^Confirm and next/ } : { name: button, exact: true },
    )
    .click();
  if (then !== undefined) await expect(uncheckedGate(page).or(then)).toBeVisible();
  await answerUncheckedGate(page);
}

function uncheckedGate(page: Page): Locator {
  return page.getByRole('dialog', { name: /values? not checked$/ });
}

/** After a confirmation was asked for (a button, Ctrl+Enter): "Confirm anyway" if the gate asks. */
export async function answerUncheckedGate(page: Page): Promise<void> {
  const gate = uncheckedGate(page);
  if (await gate.isVisible()) await gate.getByRole('button', { name: 'Confirm anyway' }).click();
}
