/**
 * When a webhook delivery is tried again: the reference service's policy (docs/reference-webhooks-rag.md,
 * "Delivery"), shared by its dispatcher (reference/webhooks/dispatcher.ts) and the app server's way back
 * (review/deliveries/delivery-worker.ts), so both retry alike.
 */

/** What one delivery attempt came to (post-webhook.ts for the reference, upstream/deliver-once.ts for the app). */
export type AttemptOutcome =
  | { kind: 'delivered'; status: number }
  | {
      kind: 'status';
      status: number;
      statusText: string;
      location: string | null;
      retryAfterMs: number | null;
    }
  | { kind: 'timeout' }
  | { kind: 'network'; message: string }
  /** The dispatcher is shutting down; the attempt's outcome is unknown. */
  | { kind: 'aborted' };

export interface RetryPolicy {
  /** Attempts per delivery, the first included. Default 5. */
  maxAttempts: number;
  /** Per attempt, from connecting to the response's status line. Default 10 s. */
  attemptTimeoutMs: number;
  /** Wait before the first retry; doubled for each further one. Default 1 s. */
  initialDelayMs: number;
  /** Cap of any wait, `Retry-After` included. Default 60 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  attemptTimeoutMs: 10_000,
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
};

/**
 * The wait before retry n (after attempt n failed): initial × 2^(n-1), capped, with "equal jitter"
 * (50–100 %), and at least the receiver's `Retry-After` (capped too). `random` is 0..1.
 */
export function retryDelay(
  policy: Pick<RetryPolicy, 'initialDelayMs' | 'maxDelayMs'>,
  attempt: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const { initialDelayMs, maxDelayMs } = policy;
  const exponential = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
  const jittered = exponential * (0.5 + 0.5 * random());
  return Math.min(maxDelayMs, Math.max(jittered, retryAfterMs ?? 0));
}

const formatDuration = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/** What an attempt that was not a 2xx came to, as the dispatchers word it for an admin. */
export function describeFailedAttempt(
  outcome:
    | { kind: 'status'; status: number; statusText: string; location: string | null }
    | { kind: 'timeout' }
    | { kind: 'network'; message: string },
  attempt: number,
  maxAttempts: number,
  timeoutMs: number,
  who = 'the endpoint',
): string {
  const at = `Attempt ${attempt} of ${maxAttempts}`;
  switch (outcome.kind) {
    case 'timeout':
      return `${at}: ${who} did not answer within ${formatDuration(timeoutMs)}.`;
    case 'network':
      return `${at}: ${who} could not be reached (${outcome.message}).`;
    case 'status': {
      const answered = `${at}: ${who} answered ${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}`;
      if (outcome.status >= 300 && outcome.status < 400) {
        const to = outcome.location ? ` to ${outcome.location}` : '';
        return `${answered}${to}; redirects are not followed: configure the final URL.`;
      }
      return `${answered}; a 2xx status is expected.`;
    }
  }
}

/**
 * `Retry-After` in seconds or as an HTTP date, in milliseconds from now. A date is the receiver's wall
 * clock: it is compared with the system's (server-kit/clock.ts), not with an injected clock.
 */
export function retryAfterMs(value: string | null): number | null {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
