/**
 * The limits of the public routes (issue 22), counted in the review store (store/request-limits.ts)
 * so that every copy behind the proxy sees them, and keyed on the client address as the trusted proxy
 * reports it (review-context `clientAddress`), not on the proxy's own:
 *
 * - sign-in counts failures only: 10 of one name from any address, 20 from one address, in 15
 *   minutes (the contract's constants). Past either, that name or address is refused (429-003)
 *   before its password is checked, so a right guess is never told apart once the limit is reached;
 * - the set-up link's uses (429-001) and the password links' checks and uses (429-002): every try,
 *   20 per address in 15 minutes, as before but shared by the copies.
 *
 * Each refusal states the wait (auth/too-many.ts): in `detail` in words, in `Retry-After` and
 * `retry_after` in seconds.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ProblemCode } from '@extraction-review/contract/problem';
import {
  SETUP_ATTEMPTS,
  SIGN_IN_FAILURES_PER_ADDRESS,
  SIGN_IN_FAILURES_PER_NAME,
  SIGN_IN_WINDOW_MINUTES,
} from '@extraction-review/contract/review/routes/session';
import { PASSWORD_LINK_ATTEMPTS } from '@extraction-review/contract/review/routes/operators';
import type { SignInLimits } from '../store/request-limits';
import type { ReviewContext } from '../review-context';
import { describeWait, tooMany } from '../auth/too-many';

export const SIGN_IN_LIMITS: SignInLimits = {
  perName: SIGN_IN_FAILURES_PER_NAME,
  perAddress: SIGN_IN_FAILURES_PER_ADDRESS,
  windowMs: SIGN_IN_WINDOW_MINUTES * 60_000,
};
const LINK_WINDOW_MS = 15 * 60_000;

/** Throws 429-003 when this name or this address has failed too often. */
export async function refuseBlockedSignIn(review: ReviewContext, c: Context, name: string): Promise<void> {
  const block = await review.limits.signInBlocked(
    name,
    review.clientAddress(c),
    review.clock.now(),
    SIGN_IN_LIMITS,
  );
  if (block === undefined) return;
  const what =
    block.by === 'name'
      ? `${SIGN_IN_LIMITS.perName} failed sign-ins of this name`
      : `${SIGN_IN_LIMITS.perAddress} failed sign-ins from this address`;
  throw tooMany(
    '429-003',
    `${what} in the last ${SIGN_IN_WINDOW_MINUTES} minutes: sign-in is refused for another ${describeWait(block.retryAfterMs)}. An admin can send you a password link.`,
    block.retryAfterMs,
  );
}

export function recordSignInFailure(review: ReviewContext, c: Context, name: string): Promise<void> {
  return review.limits.recordSignInFailure(
    name,
    review.clientAddress(c),
    review.clock.now(),
    SIGN_IN_LIMITS.windowMs,
  );
}

export function clearSignInFailures(review: ReviewContext, c: Context, name: string): Promise<void> {
  return review.limits.clearSignInFailures(name, review.clientAddress(c));
}

/** Every try counted per client address; past `limit` in the window, the problem `code`. */
function triesPerAddress(
  review: ReviewContext,
  options: { counter: string; limit: number; code: ProblemCode; what: string; advice: string },
): MiddlewareHandler {
  return async (c, next) => {
    const now = review.clock.now();
    const counted = await review.limits.count(
      `${options.counter}:${review.clientAddress(c)}`,
      now,
      LINK_WINDOW_MS,
    );
    if (counted.count > options.limit) {
      const waitMs = counted.resetAt - now;
      throw tooMany(
        options.code,
        `More than ${options.limit} ${options.what} from this address in 15 minutes. Try again in ${describeWait(waitMs)}, ${options.advice}`,
        waitMs,
      );
    }
    await next();
  };
}

export const setupTriesLimit = (review: ReviewContext): MiddlewareHandler =>
  triesPerAddress(review, {
    counter: 'setup',
    limit: SETUP_ATTEMPTS,
    code: '429-001',
    what: 'uses of a set-up link',
    advice: 'or print a new link (npm run operators -- setup-link).',
  });

export const passwordLinkTriesLimit = (review: ReviewContext): MiddlewareHandler =>
  triesPerAddress(review, {
    counter: 'password-link',
    limit: PASSWORD_LINK_ATTEMPTS,
    code: '429-002',
    what: 'tries of password links',
    advice: 'or ask an admin for a new link.',
  });

/**
 * Starting or finishing a sign-in with the company's provider: the provider checks the credentials
 * (and limits guesses itself), so only the hammering of these routes is bounded here. A sign-in is two
 * requests; a whole office behind one address signs in through them.
 */
export const PROVIDER_SIGN_IN_TRIES = 200;

export const providerTriesLimit = (review: ReviewContext): MiddlewareHandler =>
  triesPerAddress(review, {
    counter: 'provider-sign-in',
    limit: PROVIDER_SIGN_IN_TRIES,
    code: '429-001',
    what: 'requests to sign in with the provider',
    advice: 'or sign in with a name and password if your admin allows it.',
  });
