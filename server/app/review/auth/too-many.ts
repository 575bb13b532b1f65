/**
 * The 429 of every limit of the app server (sign-in, links, an integration's minute, issue 22): the
 * wait in `detail` as a person reads it, and in seconds in `Retry-After` and the body's `retry_after`.
 * Here, apart from the routes, because the review API (http/) and the gateway (gateway/) both answer it.
 */
import { ProblemError, type ProblemCode } from '@extraction-review/contract/problem';

/** Whole seconds to wait, at least 1 (`Retry-After: 0` would invite a retry loop). */
export const waitSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** "3 minutes", "1 minute", "40 seconds": the wait as a person reads it, rounded up. */
export function describeWait(ms: number): string {
  const seconds = waitSeconds(ms);
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A 429 with the wait in `Retry-After` and in the body's `retry_after` (seconds). */
export function tooMany(code: ProblemCode, detail: string, waitMs: number): ProblemError {
  const seconds = waitSeconds(waitMs);
  return new ProblemError(code, detail, {
    headers: { 'Retry-After': String(seconds) },
    extensions: { retry_after: seconds },
  });
}
