/**
 * Who is calling, for every review route: the session cookie (or the company proxy's single sign-on
 * header, which opens a session of the same kind), and, for any state-changing request, the session's
 * CSRF token in `X-CSRF-Token`, compared in constant time. The origin and host checks of the app
 * server (server/app/cross-site-guard.ts) come first; the token is the second lock.
 *
 * The cookie: an opaque 256-bit token, `HttpOnly` (no script reads it), `SameSite=Lax` (not sent by
 * other sites' subrequests), `Secure` when the browser came over HTTPS, `Path=/`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { trustRequestBody } from '@extraction-review/server-kit/connection-limits';
import { ProblemError } from '@extraction-review/contract/problem';
import { requestConnection } from '@extraction-review/server-kit/request-connection';
import { nameKey } from '../store/operator-store';
import { signOnSessionsOf } from '../store/sign-on-sessions';
import type { ActiveSession } from '../store/session-store';
import type { ReviewContext, ReviewEnv } from '../review-context';

export const SESSION_COOKIE = 'er_session';
export const CSRF_HEADER = 'X-CSRF-Token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function setSessionCookie(c: Context, review: ReviewContext, token: string, expiresAt: number): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: review.isHttps(c),
    path: '/',
    maxAge: Math.max(0, Math.floor((expiresAt - review.clock.now()) / 1000)),
  });
}

export function clearSessionCookie(c: Context, review: ReviewContext): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: review.isHttps(c), httpOnly: true, sameSite: 'Lax' });
}

/** The session of this request, from its cookie or the single sign-on header; undefined if none. */
export async function currentSession(c: Context, review: ReviewContext): Promise<ActiveSession | undefined> {
  const token = getCookie(c, SESSION_COOKIE);
  const found =
    token !== undefined && token !== '' ? await review.sessions.find(token, review.clock.now()) : undefined;
  // A deactivated operator's sessions were ended; one opened meanwhile (an older copy) counts for none.
  const session = found?.operator.deactivated_at == null ? found : undefined;
  // Behind single sign-on the proxy's word wins: another person at the same browser is not the
  // cookie's operator.
  const named = singleSignOnName(c, review);
  if (named === undefined || (session !== undefined && session.operator.name_key === nameKey(named)))
    return session;
  return singleSignOn(c, review, named);
}

/** The person the trusted proxy names, if single sign-on is on and the request comes through it. */
function singleSignOnName(c: Context, review: ReviewContext): string | undefined {
  if (review.sso === undefined) return undefined;
  const named = c.req.header(review.sso.header)?.trim();
  if (named === undefined || named === '') return undefined;
  return review.sso.trusted(requestConnection(c)?.remoteAddress) ? named : undefined;
}

/**
 * Behind the company's proxy, the person it signed in is named in a header, believed only from the
 * proxy's addresses; they must be an operator here (an admin adds them, with no password). A session
 * is opened for them, so the CSRF token works as for a password sign-in: the one this person already
 * has in this browser (same User-Agent) when the request came without its cookie, else a new one
 * (store/sign-on-sessions.ts), and its cookie set, so that a browser sends it from then on.
 */
async function singleSignOn(
  c: Context,
  review: ReviewContext,
  named: string,
): Promise<ActiveSession | undefined> {
  const operator = await review.operators.findByName(named);
  if (operator === undefined || operator.deactivated_at !== null) return undefined;
  const opened = await signOnSessionsOf(review.sessions).open(
    operator.id,
    c.req.header('user-agent') ?? '',
    review.clock.now(),
  );
  setSessionCookie(c, review, opened.token, opened.expiresAt);
  return { operator, csrfToken: opened.csrfToken, expiresAt: opened.expiresAt };
}

/** Signed in, and for a state-changing request, with the session's CSRF token. */
export function requireSession(review: ReviewContext): MiddlewareHandler<ReviewEnv> {
  return async (c, next) => {
    const session = await currentSession(c, review);
    if (session === undefined) {
      throw new ProblemError(
        '401-011',
        'Sign in to use the review: your session is missing, expired or ended.',
      );
    }
    if (!SAFE_METHODS.has(c.req.method) && !sameToken(c.req.header(CSRF_HEADER), session.csrfToken)) {
      throw new ProblemError(
        '403-004',
        `A change needs the session's CSRF token in the ${CSRF_HEADER} header (GET /api/session gives it).`,
      );
    }
    c.set('session', session);
    // Signed in: an upload may now take longer than the 30 s an unknown peer gets.
    trustRequestBody(c);
    await next();
  };
}

export function requireAdmin(): MiddlewareHandler<ReviewEnv> {
  return async (c, next) => {
    if (c.get('session').operator.role !== 'admin') {
      throw new ProblemError('403-005', 'Only an admin may do this.');
    }
    await next();
  };
}

function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
