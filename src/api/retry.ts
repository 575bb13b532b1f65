/**
 * When a failed call is tried again, and after how long. The HTTP module (http.ts) hands these rules to
 * ky; they live apart so they can be read, and tested, on their own.
 *
 * Per method:
 * - GET and PUT are idempotent (RFC 9110 §9.2.2): network errors, time-outs, 408, 429 and 5xx (500, 502,
 *   503, 504) are retried. Polling, results, documents, model search and a v1 feedback PUT are all safe to
 *   send twice.
 * - POST and PATCH only on 429: the service rate-limits before it does any work (API-FACTS "Rate limits per
 *   organisation ... then 429"), so nothing was created and a retry cannot enqueue a second, billed job.
 *   After a network error or a 5xx the request may have been processed, so it is not repeated: the caller
 *   decides (the upload form shows the error and a "try again" button).
 * - Never: other 4xx, a schema mismatch, a cancelled call.
 *
 * Waits: a 429 or 503 with `Retry-After` (seconds or an HTTP date) waits exactly that long, unless it is
 * longer than `maxRetryAfterMs`: then the call fails at once and the error carries `retryAfterSeconds` so the
 * UI can say "try again in N s". Otherwise capped exponential backoff with jitter.
 */

export interface RetryPolicy {
  /** Retries after the first attempt (so at most `limit + 1` requests). */
  limit: number;
  /** Backoff before the first retry; doubles for each further retry. */
  baseDelayMs: number;
  /** Upper bound of one backoff wait. */
  maxDelayMs: number;
  /** Longest `Retry-After` waited for inside one call. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  limit: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT']);
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);

export function isIdempotent(method: HttpMethod): boolean {
  return IDEMPOTENT.has(method);
}

/** May a response with this status be retried for this method? */
export function isRetryableStatus(method: HttpMethod, status: number): boolean {
  if (status === 429) return true;
  return isIdempotent(method) && RETRYABLE_STATUS.has(status);
}

/** May a failure without a response (network error, time-out) be retried for this method? */
export function isRetryableNetworkFailure(method: HttpMethod): boolean {
  return isIdempotent(method);
}

const DELAY_SECONDS = /^\d+(\.\d+)?$/;

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds (`120`) or an HTTP date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`), RFC 9110 §10.2.3. A date in the past gives 0; anything unreadable
 * gives undefined.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (DELAY_SECONDS.test(text)) return Math.round(Number(text) * 1000);
  // Every HTTP-date form names the day or month; without letters, Date.parse would take "-5" as a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Backoff before retry number `retry` (1 for the first retry): `baseDelayMs * 2^(retry-1)`, capped at
 * `maxDelayMs`, with "equal jitter" (a uniform pick in the upper half), so clients that failed together
 * do not come back together and no wait is shorter than half the step.
 */
export function backoffDelay(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
