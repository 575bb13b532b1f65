/**
 * Company sign-in through a real OpenID Connect provider (oidc-provider on 127.0.0.1, started by the
 * journey, test-kit/oidc-test-provider.ts) in Chromium: the sign-in page offers "Sign in with …"
 * beside the password form; the provider signs the person in (its interaction picks the test account
 * at once) and sends the browser back to /sign-in, which finishes the sign-in; the operator, created
 * at this first sign-in with the role of the provider's `groups` claim, lands on the team queue.
 * An app server of its own (fresh-server.ts): the OIDC_* settings are read at start.
 */
import { expect, test } from '@playwright/test';
import { startTestProvider, type TestProvider } from '@extraction-review/test-kit/oidc-test-provider';
import { expectAccessible, keepScreenshot } from './support/artifacts';
import { removeFreshServerData, startFreshServer, type FreshServer } from './support/fresh-server';
import { NOBODY } from './support/team';

const STARTED = /Job events: /;

test('signs in with the company’s provider and lands on the team queue', async ({ browser }) => {
  test.setTimeout(120_000);
  let provider: TestProvider | undefined;
  let server: FreshServer | undefined;
  try {
    provider = await startTestProvider({
      accounts: {
        'sub-olga': {
          email: 'olga@example.com',
          email_verified: true,
          name: 'Olga',
          groups: ['review-admins'],
        },
      },
    });
    server = await startFreshServer({
      offset: 24,
      env: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_NAME: 'Test IdP',
        OIDC_AUTO_CREATE: 'true',
        OIDC_ROLE_CLAIM: 'groups',
        OIDC_ADMIN_VALUES: 'review-admins',
      },
    });
    provider.allowRedirectUri(`${server.url}/sign-in`);
    await server.waitFor(STARTED);

    const context = await browser.newContext({ storageState: NOBODY, baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/sign-in');
    const button = page.getByRole('button', { name: 'Sign in with Test IdP' });
    await expect(button).toBeVisible();
    await expect(page.getByLabel('Password')).toBeVisible();
    await expectAccessible(page, 'sign-in with a provider');
    for (const [width, height] of [
      [1280, 720],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await keepScreenshot(page, `sign-in-provider-${width}x${height}`);
    }

    // A way back this browser did not start: refused, in the server's words, with the choices again.
    await page.goto('/sign-in?code=not-a-code&state=not-this-browser');
    const refusal = page.getByRole('alert');
    await expect(refusal).toContainText('Provider sign-in expired');
    await expect(refusal).toContainText('401-017');
    await expect(page).toHaveURL(/\/sign-in$/);
    await keepScreenshot(page, 'sign-in-provider-refused');

    await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
    // Through the provider's pages and back to /sign-in, then on to the queue.
    await expect(page).toHaveURL(/\/queue$/, { timeout: 30_000 });
    await expect(page.getByRole('heading', { name: /queue/i }).first()).toBeVisible();
    const session = await page.evaluate(async () => (await fetch('/api/session')).json());
    expect(session).toMatchObject({ operator: { name: 'olga@example.com', role: 'admin' } });
    await keepScreenshot(page, 'signed-in-with-provider');
    await context.close();
  } finally {
    await server?.stop();
    if (server !== undefined) await removeFreshServerData(server.dataDir);
    await provider?.close();
  }
});
