/**
 * The v2 API key check. The hosted service takes the bare key in `Authorization`, no `Bearer` and no
 * `Token` (API-FACTS), so "Bearer <key>" is simply a wrong key. Compared in constant time over
 * equal-length digests, so neither the key's content nor its length leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

export function requireApiKey(apiKey: string): MiddlewareHandler {
  const expected = digest(apiKey);
  return async (c, next) => {
    const given = c.req.header('authorization');
    if (given === undefined || given.trim() === '') {
      throw new ProblemError('401-008', 'Credentials are required.');
    }
    if (!timingSafeEqual(digest(given.trim()), expected)) {
      throw new ProblemError('401-001', 'The provided API key is invalid.');
    }
    await next();
  };
}
