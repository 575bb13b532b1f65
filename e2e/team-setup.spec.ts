/**
 * A new team's first steps, in the real app: the one-time set-up link, as the first start of an app
 * server with an empty store prints it (a server of this journey's own: the journeys' shared store
 * has an admin, and then no link is printed), creates the first admin, who adds an operator on the
 * operators page; the operator signs in and sees the team queue. The link works once; once there is
 * an admin, the command makes no other link and a restart prints none (issue 18). Each page is
 * scanned with axe-core.
 */
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { removeFreshServerData, startFreshServer, type FreshServer } from './support/fresh-server';
import { NOBODY, PASSWORD, runOperators, signIn, uniqueName } from './support/team';

/** Printed after the set-up link, if any: the start's output is complete up to here. */
const STARTED = /Job events: /;
const SETUP_LINK = /(http:\/\/\S+\/setup#[A-Za-z0-9_-]{43})/;

test('the set-up link makes the first admin, who adds an operator who then signs in', async ({ browser }) => {
  test.setTimeout(240_000);
  let server: FreshServer | undefined = await startFreshServer({ offset: 10 });
  const dataDir = server.dataDir;
  try {
    const printed = await server.waitFor(STARTED);
    expect(printed).toMatch(/No admin yet: open this one-time link within an hour/);
    const link = SETUP_LINK.exec(printed)?.[1] ?? '';
    expect(link.startsWith(`${server.url}/setup#`)).toBe(true);
    await journey(browser, server.url, link);

    // An admin exists: the command makes no other link, and a restart prints none.
    const appData = { APP_DATA_DIR: path.join(dataDir, 'app') };
    await expect(runOperators(['setup-link', '--base', server.url], { env: appData })).rejects.toThrow(
      /An admin exists already/,
    );
    await server.stop();
    server = undefined;
    server = await startFreshServer({ offset: 10, dataDir });
    const restarted = await server.waitFor(STARTED);
    expect(restarted).not.toMatch(/setup#/);
    expect(restarted).not.toMatch(/No admin yet/);
  } finally {
    await server?.stop();
    await removeFreshServerData(dataDir);
  }
});

async function journey(browser: Browser, baseURL: string, link: string): Promise<void> {
  // A browser nobody has signed in yet (not the journeys' shared operator).
  const adminContext = await browser.newContext({ storageState: NOBODY, baseURL });
  const page = await adminContext.newPage();

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
  await page.getByLabel('Role', { exact: true }).selectOption('operator');
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
  const context = await browser.newContext({ storageState: NOBODY, baseURL });
  const theirs = await context.newPage();
  await signIn(theirs, operator);
  await expect(theirs.getByText(`${operator} (operator)`)).toBeVisible();
  // Not an admin: no operators link.
  await expect(theirs.getByRole('link', { name: 'Operators' })).toHaveCount(0);
  await expectAccessible(theirs, 'team-queue');
  await keepScreenshot(theirs, 'team-queue');
  await theirs.getByRole('button', { name: 'Sign out' }).click();
  // Signed out on a team page: the sign-in form at once, to come back to it.
  await expect(theirs.getByRole('form', { name: 'Sign in' })).toBeVisible();
  await expect(theirs).toHaveURL(/\/sign-in\?next=%2Fqueue/);
  await context.close();
  await adminContext.close();
}
