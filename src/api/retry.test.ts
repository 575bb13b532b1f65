import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  isRetryableNetworkFailure,
  isRetryableStatus,
  parseRetryAfter,
} from './retry';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
  });

  it('reads an HTTP date, relative to now', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
  });

  it('gives 0 for a date in the past', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('gives undefined for no header or an unreadable one', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  const policy = { baseDelayMs: 500, maxDelayMs: 8_000 };

  it('doubles per retry, from the upper half of each step', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(250);
    expect(backoffDelay(1, policy, () => 1)).toBe(500);
    expect(backoffDelay(2, policy, () => 1)).toBe(1_000);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(1_500);
  });

  it('never exceeds the cap, however many retries', () => {
    for (let retry = 1; retry <= 40; retry++) {
      const high = backoffDelay(retry, policy, () => 1);
      expect(high).toBeLessThanOrEqual(policy.maxDelayMs);
      expect(backoffDelay(retry, policy, () => 0)).toBeGreaterThanOrEqual(
        Math.min(high, policy.maxDelayMs) / 2,
      );
    }
    expect(backoffDelay(40, policy, () => 1)).toBe(8_000);
  });

  it('has sensible defaults', () => {
    expect(DEFAULT_RETRY_POLICY.limit).toBeGreaterThan(0);
    expect(DEFAULT_RETRY_POLICY.maxDelayMs).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxRetryAfterMs);
  });
});

describe('what each method may retry', () => {
  it('retries 429 for every method: the request was refused before any work', () => {
    for (const method of ['GET', 'PUT', 'POST', 'PATCH'] as const)
      expect(isRetryableStatus(method, 429)).toBe(true);
  });

  it('retries 5xx, 408 and network failures only for idempotent methods', () => {
    for (const status of [408, 500, 502, 503, 504]) {
      expect(isRetryableStatus('GET', status)).toBe(true);
      expect(isRetryableStatus('PUT', status)).toBe(true);
      expect(isRetryableStatus('POST', status)).toBe(false);
      expect(isRetryableStatus('PATCH', status)).toBe(false);
    }
    expect(isRetryableNetworkFailure('GET')).toBe(true);
    expect(isRetryableNetworkFailure('POST')).toBe(false);
  });

  it('never retries other 4xx', () => {
    for (const status of [400, 401, 402, 403, 404, 413, 422])
      expect(isRetryableStatus('GET', status)).toBe(false);
  });
});
