/**
 * Signing in and out, and the one-time set-up link that creates the first admin (the handlers:
 * server/app/review/http/session-routes.ts). A set-up link makes the first admin only: refused (404-011)
 * once any admin exists, however made; used once; valid an hour.
 */
import { z } from 'zod';
import {
  MIN_PASSWORD_LENGTH,
  ProviderCallbackRequest,
  ProviderSignInStart,
  SessionResponse,
  SetupRequest,
  SignInOptions,
  SignInRequest,
} from '../schemas';
import { SetupLinkValid, SignedOut } from './components';
import { declareRoute } from './declare';

/**
 * Failed sign-ins counted (issue 22), in the review store so that every copy sees them: a name's
 * failures from any address, and an address's failures for any name, each in its last 15 minutes. A
 * right password does not count, and clears that name's failures from that address.
 */
export const SIGN_IN_FAILURES_PER_NAME = 10;
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
export const SIGN_IN_WINDOW_MINUTES = 15;
/** Set-up attempts (uses of the link) per client address in 15 minutes. */
export const SETUP_ATTEMPTS = 20;

const SET_COOKIE = {
  'Set-Cookie': {
    description:
      'The session cookie `er_session`: an opaque token, HttpOnly, SameSite=Lax, Secure over HTTPS, Path=/.',
    schema: { type: 'string' },
  },
};

export const signIn = declareRoute({
  operationId: 'signIn',
  method: 'post',
  path: '/api/session',
  tag: 'session',
  summary: 'Sign in',
  description: `Opens a session: the \`er_session\` cookie, and the CSRF token in the body. A session cookie sent along is ended first. Failed sign-ins are limited: ${SIGN_IN_FAILURES_PER_NAME} for one name from any address and ${SIGN_IN_FAILURES_PER_ADDRESS} from one client address (as the trusted proxy reports it) in ${SIGN_IN_WINDOW_MINUTES} minutes; past either, every try of that name or from that address is refused with 429-003 (and \`Retry-After\`) until the oldest failures are older than that. A right password is not counted, and clears the name’s failures from that address.`,
  access: 'public',
  body: SignInRequest,
  responses: { 200: { description: 'Signed in.', schema: SessionResponse, headers: SET_COOKIE } },
  problems: ['401-012', '403-007', '403-008', '429-003'],
});

export const signInOptions = declareRoute({
  operationId: 'signInOptions',
  method: 'get',
  path: '/api/session/options',
  tag: 'session',
  summary: 'How to sign in',
  description:
    'Whether a password signs in here (PASSWORD_SIGNIN), and the company’s OpenID Connect provider, if one is configured (OIDC_ISSUER), with the name of its button.',
  access: 'public',
  responses: { 200: { description: 'The ways to sign in.', schema: SignInOptions } },
});

export const startProviderSignIn = declareRoute({
  operationId: 'startProviderSignIn',
  method: 'post',
  path: '/api/session/provider',
  tag: 'session',
  summary: 'Start signing in with the OpenID Connect provider',
  description:
    'Answers the provider’s authorization URL (authorization code flow with PKCE, state and nonce) and sets `er_oidc`, a signed, HttpOnly cookie valid 10 minutes that keeps the state, the nonce and the PKCE verifier for the way back. The provider sends the browser back to `/sign-in`. Bounded per client address (200 in 15 minutes, 429-001).',
  access: 'public',
  responses: { 200: { description: 'Go there to sign in.', schema: ProviderSignInStart } },
  problems: ['404-015', '429-001', '502-004'],
});

export const finishProviderSignIn = declareRoute({
  operationId: 'finishProviderSignIn',
  method: 'post',
  path: '/api/session/provider/callback',
  tag: 'session',
  summary: 'Finish signing in with the OpenID Connect provider',
  description:
    'Checks the provider’s answer against the `er_oidc` cookie (state, then the code with the PKCE verifier, then the ID token’s nonce), finds the operator linked to the identity (issuer and subject), or the operator named by its e-mail or user name (then links it), or creates one (OIDC_AUTO_CREATE); sets the role from OIDC_ROLE_CLAIM; then opens a session as a password sign-in does. Bounded per client address (200 in 15 minutes, 429-001).',
  access: 'public',
  body: ProviderCallbackRequest,
  responses: { 200: { description: 'Signed in.', schema: SessionResponse, headers: SET_COOKIE } },
  problems: ['401-015', '401-016', '401-017', '403-007', '404-015', '429-001', '502-004'],
});

export const getSession = declareRoute({
  operationId: 'getSession',
  method: 'get',
  path: '/api/session',
  tag: 'session',
  summary: 'Who is signed in',
  description:
    'The session of the cookie, if any. Behind the company’s proxy, the single sign-on header (sent only by the proxy) opens a session instead, with a new cookie.',
  access: 'optional',
  responses: { 200: { description: 'Signed in, with the session’s CSRF token.', schema: SessionResponse } },
  notes: { '401-011': 'nobody is signed in in this browser' },
});

export const signOut = declareRoute({
  operationId: 'signOut',
  method: 'delete',
  path: '/api/session',
  tag: 'session',
  summary: 'Sign out',
  description:
    'Releases the documents the operator holds (back to the queue, each with its event), then ends the session and clears its cookie.',
  access: 'operator',
  responses: {
    200: { description: 'Signed out; the cookie is cleared.', schema: SignedOut, headers: SET_COOKIE },
  },
});

export const checkSetupLink = declareRoute({
  operationId: 'checkSetupLink',
  method: 'get',
  path: '/api/setup/{token}',
  tag: 'session',
  summary: 'Check a set-up link',
  description: 'Whether the one-time set-up link that creates the first admin can still be used.',
  access: 'public',
  params: z.object({ token: z.string().describe('The set-up link’s token (its URL fragment).') }),
  responses: { 200: { description: 'The link is valid.', schema: SetupLinkValid } },
  problems: ['404-011'],
});

export const setUp = declareRoute({
  operationId: 'setUp',
  method: 'post',
  path: '/api/setup',
  tag: 'session',
  summary: 'Create the first admin',
  description: `Uses up the one-time set-up link: creates the first admin and signs them in. Limited to ${SETUP_ATTEMPTS} attempts per client address in 15 minutes.`,
  access: 'public',
  body: SetupRequest,
  responses: { 200: { description: 'The admin, signed in.', schema: SessionResponse, headers: SET_COOKIE } },
  problems: ['404-011', '409-003', '429-001'],
  notes: { '422-008': `the body does not fit, or the password is shorter than ${MIN_PASSWORD_LENGTH}` },
});

export const sessionRoutes = [
  signIn,
  getSession,
  signOut,
  signInOptions,
  startProviderSignIn,
  finishProviderSignIn,
  checkSetupLink,
  setUp,
] as const;
