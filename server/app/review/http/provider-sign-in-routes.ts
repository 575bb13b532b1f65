/**
 * Signing in with the company's OpenID Connect provider (auth/oidc-provider-client.ts), and what the
 * sign-in page needs to know of the ways to sign in. The routes are declared in
 * packages/contract/src/review/routes/session.ts.
 *
 * The start answers the provider's URL and keeps the state, nonce and PKCE verifier in the signed
 * `er_oidc` cookie of this browser (auth/oidc-state-cookie.ts); the provider sends the browser back to
 * `/sign-in`, whose page posts the query it came with to the callback. There the state is compared
 * first (a way back this browser did not start is refused before the provider is asked anything),
 * then the code is exchanged and the ID token checked, then the operator found (auth/provider-operator.ts)
 * and a session opened as for a password.
 */
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import * as client from 'openid-client';
import * as declared from '@extraction-review/contract/review/routes/session';
import { ProblemError } from '@extraction-review/contract/problem';
import {
  OIDC_STATE_COOKIE,
  OIDC_STATE_TTL_MS,
  openPendingSignIn,
  sealPendingSignIn,
} from '../auth/oidc-state-cookie';
import { ProviderAnswerRefusedError, ProviderUnreachableError } from '../auth/oidc-provider-client';
import { providerOperator } from '../auth/provider-operator';
import type { ReviewContext, ReviewEnv } from '../review-context';
import { mountRoute } from './mount-route';
import { presentOperator } from './present';

const COOKIE_PATH = '/api/session/provider';

export interface ProviderSignInDeps {
  /** Opens the session, its cookie set, as a password sign-in does; answers its body. */
  openSession: (c: Context, operatorId: string) => Promise<{ csrfToken: string }>;
  limited: { before: MiddlewareHandler[] };
}

export function providerSignInRoutes(
  routes: Hono<ReviewEnv>,
  review: ReviewContext,
  deps: ProviderSignInDeps,
) {
  const oidc = review.oidc;

  mountRoute(routes, review, declared.signInOptions, (c) =>
    c.json(
      {
        passwordSignIn: review.passwordSignIn !== false,
        provider: oidc === undefined ? null : { name: oidc.client.settings.name },
      },
      200,
      { 'Cache-Control': 'no-store' },
    ),
  );

  const configured = () => {
    if (oidc === undefined) {
      throw new ProblemError(
        '404-015',
        'No sign-in provider is configured here (OIDC_ISSUER): sign in with a password.',
      );
    }
    return oidc;
  };

  mountRoute(
    routes,
    review,
    declared.startProviderSignIn,
    async (c) => {
      const { client: provider, stateKey } = configured();
      const pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        redirectUri: `${appOrigin(c, review)}/sign-in`,
      };
      const url = await asProblem(() => provider.authorizationUrl(pending));
      const expiresAt = review.clock.now() + OIDC_STATE_TTL_MS;
      setCookie(c, OIDC_STATE_COOKIE, sealPendingSignIn({ ...pending, expiresAt }, stateKey), {
        httpOnly: true,
        sameSite: 'Lax',
        secure: review.isHttps(c),
        path: COOKIE_PATH,
        maxAge: OIDC_STATE_TTL_MS / 1000,
      });
      return c.json({ authorizationUrl: url.href }, 200, { 'Cache-Control': 'no-store' });
    },
    deps.limited,
  );

  mountRoute(
    routes,
    review,
    declared.finishProviderSignIn,
    async (c, { body: { callback } }) => {
      const { client: provider, stateKey, identities } = configured();
      const now = review.clock.now();
      const pending = openPendingSignIn(getCookie(c, OIDC_STATE_COOKIE), stateKey, now);
      // Used once, whatever comes of it.
      deleteCookie(c, OIDC_STATE_COOKIE, { path: COOKIE_PATH, secure: review.isHttps(c), httpOnly: true });
      if (pending === undefined) {
        throw new ProblemError(
          '401-017',
          'This sign-in with the provider was started more than 10 minutes ago or in another browser. Start again.',
        );
      }
      const query = new URLSearchParams(callback.startsWith('?') ? callback.slice(1) : callback);
      if (query.get('state') !== pending.state) {
        throw new ProblemError(
          '401-015',
          'The provider’s answer is not for the sign-in this browser started (its state differs). Start again.',
        );
      }
      const identity = await asProblem(() => provider.finish(pending, query));
      const operator = await providerOperator(
        {
          database: review.database,
          operators: review.operators,
          identities,
          settings: provider.settings,
        },
        identity,
        now,
      );
      const opened = await deps.openSession(c, operator.id);
      return c.json({ operator: presentOperator(operator), csrfToken: opened.csrfToken }, 200, {
        'Cache-Control': 'no-store',
      });
    },
    deps.limited,
  );
}

/**
 * The app's origin as the browser sees it: the Origin its page sent (cross-site-guard.ts checked it is
 * the app's own), so that the provider sends the browser back to the host that holds its `er_oidc`
 * cookie; else PUBLIC_URL's or the requested one.
 */
function appOrigin(c: Context, review: ReviewContext): string {
  return c.req.header('origin') ?? review.appOrigin?.(c) ?? new URL(c.req.url).origin;
}

async function asProblem<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ProviderUnreachableError) throw new ProblemError('502-004', error.message);
    if (error instanceof ProviderAnswerRefusedError) {
      throw new ProblemError(
        '401-015',
        `The sign-in provider’s answer was refused: ${error.message}. Start again.`,
      );
    }
    throw error;
  }
}
