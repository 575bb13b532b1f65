/**
 * The `X-Signature` of a v2 webhook delivery (API-FACTS, "Webhooks"): the lowercase hexadecimal
 * HMAC-SHA256 of the raw request body, keyed with the endpoint's signing secret. A receiver must hash
 * the bytes it received, before any JSON parsing (re-serialising changes them).
 *
 * Shared by both servers: the reference service signs its deliveries with it
 * (reference/webhooks/dispatcher.ts), the app server's `/hooks/v2` receiver verifies them
 * (app/hooks/webhook-receiver.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';

const SHA256_HEX = /^[0-9a-f]{64}$/i;

export function signPayload(secret: string, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Whether `signature` (the header's value) is the HMAC of `body` under `secret`. The comparison runs in
 * constant time over the 32 digest bytes; a missing or malformed header (not 64 hexadecimal digits) is
 * refused before comparing, which reveals only its shape, not how close it came. Upper-case hex is
 * accepted, as `Buffer.from(_, 'hex')` reads both.
 */
export function verifySignature(
  secret: string,
  body: string | Uint8Array,
  signature: string | null | undefined,
): boolean {
  const given = signature?.trim() ?? '';
  if (!SHA256_HEX.test(given)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}
