/**
 * Per-key request budgets, as the hosted service has per organisation (API-FACTS: 200 POST and 1,200
 * GET per minute, then 429). hono-rate-limiter counts hits per key in fixed windows; the answer past
 * the budget is our problem details `429-001` with `Retry-After` in whole seconds (never 0).
 *
 * Runs after the key check, so the budget is the key's (an unknown key gets its 401 without using
 * anyone's budget). The key itself is never kept: the counter is keyed by its digest.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { rateLimiter, type RateLimitInfo } from 'hono-rate-limiter';
import { ProblemError } from '@extraction-review/contract/problem';

export interface RateLimits {
  /** POST requests per window and key; 0 = no limit. */
  postPerWindow: number;
  /** GET (and HEAD) requests per window and key; 0 = no limit. */
  getPerWindow: number;
  /** Default one minute; tests shorten it. */
  windowMs?: number;
}

export const DEFAULT_RATE_LIMITS = { postPerWindow: 200, getPerWindow: 1200 } as const;

const keyOf = (authorization: string | undefined): string =>
  createHash('sha256')
    .update(authorization?.trim() ?? '')
    .digest('base64url');

/** The middlewares to `use`, one per budget that is on. */
export function rateLimit(limits: RateLimits): MiddlewareHandler[] {
  const windowMs = limits.windowMs ?? 60_000;
  const budget = (method: 'POST' | 'GET', limit: number): MiddlewareHandler | undefined => {
    if (limit <= 0) return undefined;
    const counts = (requestMethod: string): boolean =>
      method === 'GET' ? requestMethod === 'GET' || requestMethod === 'HEAD' : requestMethod === method;
    return rateLimiter({
      windowMs,
      limit,
      standardHeaders: false,
      keyGenerator: (c) => keyOf(c.req.header('authorization')),
      skip: (c) => !counts(c.req.method),
      handler: (c) => {
        const info = c.get('rateLimit' as never) as RateLimitInfo | undefined;
        // hono-rate-limiter's windows run on the system clock: so does the time left (server-kit/clock.ts).
        const resetMs = (info?.resetTime?.getTime() ?? Date.now() + windowMs) - Date.now();
        const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
        throw new ProblemError(
          '429-001',
          `More than ${limit} ${method} requests in ${describeWindow(windowMs)} with this API key. ` +
            `Try again in ${retryAfter} s.`,
          { headers: { 'Retry-After': String(retryAfter) } },
        );
      },
    });
  };
  return [budget('POST', limits.postPerWindow), budget('GET', limits.getPerWindow)].filter(
    (part): part is MiddlewareHandler => part !== undefined,
  );
}

const describeWindow = (ms: number): string =>
  ms === 60_000 ? 'a minute' : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
