/**
 * Sessions and pages (issue 21), end to end on real servers: an operator signs out mid-review right
 * after an edit, and a colleague finds the document free at once with that edit on the server; a
 * signed-out visitor lands on the sign-in form and comes back where they were; the navigation shows
 * what the role can use on one line at 1280 px, the admin pages under one menu, and the header keeps
 * its height; an admin resets a password through a one-time link and deactivates an operator.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { valueOf } from './support/review-journey';
import { addOperator, enqueuePdf, NOBODY, PASSWORD, signIn, uniqueName } from './support/team';
import { invoicePdf } from './support/upload-documents';
import { INVOICE_MODEL_ID } from './support/upload-steps';

async function operatorPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({ storageState: NOBODY, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await signIn(page, name);
  return page;
}

test('signing out mid-review sends the last edit, then frees the document for a colleague', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const alice = uniqueName('Alice');
  const bob = uniqueName('Bob');
  await addOperator(alice, 'operator');
  await addOperator(bob, 'operator');
  const batch = uniqueName('signout');
  const pdf = await invoicePdf({ invoiceNumber: 'SO-1000', total: '100.00' });
  await enqueuePdf(page.request, { name: `${batch}.pdf`, buffer: Buffer.from(pdf) }, INVOICE_MODEL_ID);
  let documentId = '';
  await expect(async () => {
    const listed = await page.request.get(`/api/review/documents?q=${batch}&state=to_review`);
    const { documents } = (await listed.json()) as { documents: { id: string }[] };
    expect(documents).toHaveLength(1);
    documentId = documents[0]?.id ?? '';
  }).toPass({ timeout: 60_000 });

  const alicePage = await operatorPage(browser, alice);
  await alicePage.goto(`/review/${documentId}`);
  await alicePage.getByRole('button', { name: 'Review this document' }).click();
  await expect(valueOf(alicePage, 'invoice_number')).toHaveValue('SO-1000', { timeout: 30_000 });

  // The edit and, at once, "Sign out": no time for the saver's pause.
  await valueOf(alicePage, 'invoice_number').fill('SO-LAST-EDIT');
  await alicePage.getByRole('button', { name: 'Sign out' }).click();
  // Signed out on a team page: the sign-in form, to come back to the review.
  await expect(alicePage.getByRole('form', { name: 'Sign in' })).toBeVisible({ timeout: 20_000 });
  await expect(alicePage).toHaveURL(new RegExp(`/sign-in\\?next=%2Freview%2F${documentId}`));

  // On the server: free, with the edit.
  const read = await page.request.get(`/api/review/documents/${documentId}`);
  const { document } = (await read.json()) as {
    document: { state: string; holder: unknown; corrections: Record<string, unknown> };
  };
  expect(document.state).toBe('to_review');
  expect(document.holder).toBeNull();
  expect(document.corrections.invoice_number).toBe('SO-LAST-EDIT');

  // Bob takes it at once, and reads Alice's edit.
  const bobPage = await operatorPage(browser, bob);
  await bobPage.goto(`/review/${documentId}`);
  await bobPage.getByRole('button', { name: 'Review this document' }).click();
  await expect(valueOf(bobPage, 'invoice_number')).toHaveValue('SO-LAST-EDIT', { timeout: 30_000 });
  await bobPage.getByRole('tab', { name: 'History' }).click();
  // The history is read once opened (slow on a loaded machine).
  await expect(bobPage.getByRole('list').filter({ hasText: /Released it to the queue/ })).toContainText(
    alice,
    { timeout: 20_000 },
  );
  await bobPage.context().close();
  await alicePage.context().close();
});

test('a signed-out visitor gets the sign-in form and comes back; the navigation fits the role on one line', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const carol = uniqueName('Carol');
  await addOperator(carol, 'operator');
  const context = await browser.newContext({ storageState: NOBODY, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();

  await page.goto('/queue?state=to_review');
  // Once the session is read (slow on a loaded machine).
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fqueue%3Fstate%3Dto_review$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Sign in first' })).toHaveCount(0);
  const nav = page.getByRole('navigation', { name: 'Main' });
  // Signed out: nothing of the team's.
  await expect(nav.getByRole('link', { name: 'Team queue' })).toHaveCount(0);
  const headerBefore = await page.locator('header').boundingBox();
  await expectAccessible(page, 'sign-in-straight');
  await keepScreenshot(page, 'sign-in-straight');

  await page.getByLabel('Name').fill(carol);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/queue\?state=to_review$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Team queue' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Team queue' })).toBeVisible();
  // An operator: no admin menu, no admin page.
  await expect(nav.getByRole('button', { name: 'Admin' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Operators' })).toHaveCount(0);
  const headerAfter = await page.locator('header').boundingBox();
  expect(headerAfter?.height).toBe(headerBefore?.height);
  await context.close();
});

test('an admin’s navigation holds on one line at 1280 px, the admin pages in one menu', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/queue');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const admin = nav.getByRole('button', { name: 'Admin' });
  // Once the session is read (slow on a loaded machine).
  await expect(admin).toBeVisible({ timeout: 20_000 });
  // One line: every link and the menu button share the nav's one row.
  const box = await nav.boundingBox();
  for (const item of await nav.getByRole('link').all()) {
    const itemBox = await item.boundingBox();
    expect(itemBox?.y).toBeGreaterThanOrEqual(box?.y ?? 0);
    expect((itemBox?.y ?? 0) + (itemBox?.height ?? 0)).toBeLessThanOrEqual(
      (box?.y ?? 0) + (box?.height ?? 0),
    );
  }
  expect(box?.height).toBeLessThanOrEqual(64);

  // The menu, from the keyboard.
  await admin.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu', { name: 'Admin' });
  await expect(menu.getByRole('menuitem', { name: 'Operators' })).toBeFocused();
  await expectAccessible(page, 'admin-menu-open');
  await keepScreenshot(page, 'admin-menu-open');
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Where time goes' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(admin).toBeFocused();
  await admin.click();
  await menu.getByRole('menuitem', { name: 'Operators' }).click();
  await expect(page).toHaveURL(/\/operators$/);
  await expect(page.getByRole('heading', { name: 'Operators', level: 1 })).toBeVisible();
});

test('an admin resets a password with a one-time link, then deactivates the operator', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const dan = uniqueName('Dan');
  await addOperator(dan, 'operator');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/operators');
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: dan }) });
  await row.getByRole('button', { name: `Make a password link for ${dan}` }).click();
  const linkField = row.getByRole('textbox', { name: new RegExp(`Give ${dan} this link`) });
  await expect(linkField).toHaveValue(/\/set-password\?token=/);
  await keepScreenshot(page, 'operators-password-link');
  const link = await linkField.inputValue();

  // Dan, in a browser of his own, chooses a new password and signs in with it.
  const context = await browser.newContext({ storageState: NOBODY });
  const theirs = await context.newPage();
  await theirs.goto(link);
  await expect(theirs.getByText(dan)).toBeVisible();
  // The token leaves the address bar once read.
  await expect(theirs).toHaveURL(/\/set-password$/);
  const newPassword = 'a brand new passphrase';
  await theirs.getByLabel('New password', { exact: true }).fill(newPassword);
  await theirs.getByLabel('New password again').fill(newPassword);
  await expectAccessible(theirs, 'set-password');
  await theirs.getByRole('button', { name: 'Set the password' }).click();
  await expect(theirs.getByRole('status')).toContainText('Your password is set');
  await theirs.getByRole('status').getByRole('link', { name: 'Sign in' }).click();
  await theirs.getByLabel('Name').fill(dan);
  await theirs.getByLabel('Password', { exact: true }).fill(newPassword);
  await theirs.getByRole('button', { name: 'Sign in' }).click();
  await expect(theirs.getByRole('heading', { name: 'Team queue' })).toBeVisible();

  // Used once.
  const again = await context.newPage();
  await again.goto(link);
  await expect(again.getByText('This password link cannot be used any more')).toBeVisible();
  await again.close();

  // Deactivated: signed out at once, and refused at sign-in.
  await row.getByRole('button', { name: `Deactivate ${dan}` }).click();
  await row.getByRole('button', { name: `Yes, deactivate ${dan}` }).click();
  await expect(row.getByRole('button', { name: `Reactivate ${dan}` })).toBeVisible();
  await expect(row).toContainText('Deactivated');
  await expectAccessible(page, 'operators-deactivated');
  await keepScreenshot(page, 'operators-deactivated');
  await theirs.reload();
  await expect(theirs.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await theirs.getByLabel('Name').fill(dan);
  await theirs.getByLabel('Password', { exact: true }).fill(newPassword);
  await theirs.getByRole('button', { name: 'Sign in' }).click();
  await expect(theirs.getByRole('alert')).toContainText('Operator deactivated');
  await context.close();
});
