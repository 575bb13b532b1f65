/**
 * A new team's first steps, in the real app: the one-time set-up link (as the first start prints it;
 * here `npm run operators -- setup-link` makes one) creates the first admin, who adds an operator on
 * the operators page; the operator signs in and sees the team queue. The link works once. Each page
 * is scanned with axe-core.
 */
import { expect, test } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { NOBODY, PASSWORD, runOperators, signIn, uniqueName } from './support/team';

test('the set-up link makes the first admin, who adds an operator who then signs in', async ({
  browser,
  baseURL,
}) => {
  // A browser nobody has signed in yet (not the journeys' shared operator).
  const adminContext = await browser.newContext({ storageState: NOBODY });
  const page = await adminContext.newPage();
  const output = await runOperators(['setup-link', '--base', baseURL ?? '']);
  const link = output.trim().split('\n').at(-1) ?? '';
  expect(link).toMatch(/\/setup#/);

  const admin = uniqueName('Ada');
  await page.goto(link);
  // The token leaves the address bar at once.
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Set up the team' })).toBeVisible();
  await expectAccessible(page, 'setup');
  await page.getByLabel('Admin name').fill(admin);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Password again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create the admin and sign in' }).click();

  await expect(page.getByRole('heading', { name: 'Operators' })).toBeVisible();
  await expect(page.getByText(`${admin} (admin)`)).toBeVisible();
  const operator = uniqueName('Bob');
  await page.getByLabel('Name').fill(operator);
  await page.getByLabel('Role').selectOption('operator');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Password again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('row', { name: new RegExp(operator) })).toBeVisible();
  await expectAccessible(page, 'operators');
  await keepScreenshot(page, 'operators');

  // The link was for one use.
  const again = await browser.newPage();
  await again.goto(link);
  await expect(again.getByText('This set-up link cannot be used any more')).toBeVisible();
  await again.close();

  // The operator, in a browser of their own.
  const context = await browser.newContext({ storageState: NOBODY });
  const theirs = await context.newPage();
  await signIn(theirs, operator);
  await expect(theirs.getByText(`${operator} (operator)`)).toBeVisible();
  // Not an admin: no operators link.
  await expect(theirs.getByRole('link', { name: 'Operators' })).toHaveCount(0);
  await expectAccessible(theirs, 'team-queue');
  await keepScreenshot(theirs, 'team-queue');
  await theirs.getByRole('button', { name: 'Sign out' }).click();
  await expect(theirs.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  await context.close();
  await adminContext.close();
});
