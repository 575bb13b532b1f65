/**
 * Signing in and out, and the one-time set-up link that creates the first admin: the handlers of the
 * routes declared in packages/contract/src/review/routes/session.ts.
 *
 * A set-up link makes the first admin only: refused (the same 404-011) once any admin exists, however
 * made, used once (every link is spent with it), valid an hour (session-store.ts).
 *
 * Failed sign-ins are limited per name and per client address, and set-up attempts per client
 * address, in the review store so that every copy counts them (request-limits.ts): passwords cannot
 * be guessed at the speed of the network; Argon2id makes each guess costly besides.
 */
import { Hono, type Context } from 'hono';
import * as declared from '@extraction-review/contract/review/routes/session';
import type { SessionResponse } from '@extraction-review/contract/review/schemas';
import { ProblemError } from '@extraction-review/contract/problem';
import { checkPasswordRules, hashPassword, verifyPassword } from '../auth/passwords';
import type { ActiveSession } from '../store/session-store';
import { presentOperator } from './present';
import { mountRoute } from './mount-route';
import type { ReviewContext, ReviewEnv } from '../review-context';
import { clearSessionCookie, currentSession, SESSION_COOKIE, setSessionCookie } from './session-auth';
import { getCookie } from 'hono/cookie';
import {
  clearSignInFailures,
  recordSignInFailure,
  refuseBlockedSignIn,
  providerTriesLimit,
  setupTriesLimit,
} from './request-limits';
import { providerSignInRoutes } from './provider-sign-in-routes';

function sessionBody(session: Pick<ActiveSession, 'operator' | 'csrfToken'>): SessionResponse {
  return { operator: presentOperator(session.operator), csrfToken: session.csrfToken };
}

async function openSession(c: Context, review: ReviewContext, operatorId: string) {
  const opened = await review.sessions.create(operatorId, review.clock.now());
  setSessionCookie(c, review, opened.token, opened.expiresAt);
  return opened;
}

export function sessionRoutes(review: ReviewContext): Hono<ReviewEnv> {
  const routes = new Hono<ReviewEnv>();

  mountRoute(routes, review, declared.signIn, async (c, { body: { name, password } }) => {
    if (review.passwordSignIn === false) {
      throw new ProblemError(
        '403-008',
        'Sign-in with a name and password is turned off here: sign in with the company’s provider.',
      );
    }
    // Refused before the password is checked: past the limit, a right guess looks like a wrong one.
    await refuseBlockedSignIn(review, c, name);
    const operator = await review.operators.findByName(name);
    if (!(await verifyPassword(operator?.password_hash, password)) || operator === undefined) {
      // Counted whether or not an operator has this name: the limit tells nothing of who exists.
      await recordSignInFailure(review, c, name);
      throw new ProblemError('401-012', 'This name and password do not match an operator.', {
        errors: [{ pointer: '#/password', detail: 'Check the name and the password.' }],
      });
    }
    // The right password: this name's failures from this address are forgiven (a typo or two).
    await clearSignInFailures(review, c, name);
    // Checked after the password: a guesser learns nothing of who is deactivated.
    if (operator.deactivated_at !== null) {
      throw new ProblemError(
        '403-007',
        'An admin deactivated this operator: ask an admin to reactivate you.',
      );
    }
    // A new session at each sign-in: a token planted before sign-in never becomes a session.
    const previous = getCookie(c, SESSION_COOKIE);
    if (previous !== undefined) await review.sessions.delete(previous);
    const opened = await openSession(c, review, operator.id);
    return c.json(sessionBody({ operator, csrfToken: opened.csrfToken }), 200, {
      'Cache-Control': 'no-store',
    });
  });

  mountRoute(routes, review, declared.getSession, async (c) => {
    const session = await currentSession(c, review);
    if (session === undefined) throw new ProblemError('401-011', 'Nobody is signed in in this browser.');
    return c.json(sessionBody(session), 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(routes, review, declared.signOut, async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    // The documents this operator holds go back to the team at once (issue 21: they stayed locked
    // until the lease ran out). Before the session ends: a failure here leaves the operator signed in
    // and able to try again.
    const session = c.get('session');
    await review.queue.releaseAllHeldBy(session.operator.id, review.clock.now());
    if (token !== undefined) await review.sessions.delete(token);
    clearSessionCookie(c, review);
    return c.json({ signedOut: true }, 200);
  });

  const spent = () =>
    new ProblemError(
      '404-011',
      'This set-up link was used already, has expired, or an admin exists already. Sign in instead.',
    );

  mountRoute(routes, review, declared.checkSetupLink, async (c, { params: { token } }) => {
    if (!(await review.sessions.setupTokenValid(token, review.clock.now()))) throw spent();
    return c.json({ valid: true }, 200, { 'Cache-Control': 'no-store' });
  });

  mountRoute(
    routes,
    review,
    declared.setUp,
    async (c, { body: { token, name, password } }) => {
      // Checked in this order, and used up only at the end: a weak password or a taken name never
      // burns the link.
      if (!(await review.sessions.setupTokenValid(token, review.clock.now()))) throw spent();
      const weak = checkPasswordRules(password);
      if (weak !== undefined) {
        throw new ProblemError('422-008', weak, { errors: [{ pointer: '#/password', detail: weak }] });
      }
      const taken = (name: string) =>
        new ProblemError('409-003', `An operator named ${JSON.stringify(name)} already exists.`, {
          errors: [{ pointer: '#/name', detail: 'Choose another name.' }],
        });
      if ((await review.operators.findByName(name)) !== undefined) throw taken(name);
      const passwordHash = await hashPassword(password);
      // The link spent and the admin made in one transaction: of two uses at once, one makes an admin.
      const made = await review.sessions.createFirstAdmin(token, review.clock.now(), { name, passwordHash });
      if (!made.ok) throw made.reason === 'name-taken' ? taken(name) : spent();
      const row = await review.operators.findById(made.operatorId);
      if (row === undefined) throw new Error('the admin just created is gone');
      const previous = getCookie(c, SESSION_COOKIE);
      if (previous !== undefined) await review.sessions.delete(previous);
      const opened = await openSession(c, review, made.operatorId);
      return c.json(sessionBody({ operator: row, csrfToken: opened.csrfToken }), 200, {
        'Cache-Control': 'no-store',
      });
    },
    { before: [setupTriesLimit(review)] },
  );

  providerSignInRoutes(routes, review, {
    limited: { before: [providerTriesLimit(review)] },
    openSession: async (c, operatorId) => {
      // A new session at each sign-in, as for a password.
      const previous = getCookie(c, SESSION_COOKIE);
      if (previous !== undefined) await review.sessions.delete(previous);
      return openSession(c, review, operatorId);
    },
  });

  return routes;
}
