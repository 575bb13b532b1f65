/**
 * Before the journeys: this run's operator (an admin, made with the real `npm run operators`
 * command) signs in through the sign-in page, and the browser's state (the session cookie) is kept
 * for every journey (playwright.config.ts). Journeys about signing in use fresh contexts of their own.
 */
import { test as setup } from '@playwright/test';
import { addOperator, E2E_OPERATOR, operatorStatePath, signIn } from './support/team';

setup('an operator signs in', async ({ page }) => {
  await addOperator(E2E_OPERATOR, 'admin');
  await signIn(page, E2E_OPERATOR);
  await page.context().storageState({ path: operatorStatePath() });
});
