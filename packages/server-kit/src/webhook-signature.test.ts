import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPayload, verifySignature } from './webhook-signature';

const SECRET = 'whsec_test_signing_secret';
const BODY = '{"inference":{"id":"1","result":{"fields":{}}}}';

describe('webhook signature', () => {
  it('is the lowercase hex HMAC-SHA256 of the raw body, keyed with the secret', () => {
    const expected = createHmac('sha256', SECRET).update(BODY).digest('hex');
    expect(signPayload(SECRET, BODY)).toBe(expected);
    expect(signPayload(SECRET, BODY)).toMatch(/^[0-9a-f]{64}$/);
    expect(signPayload(SECRET, Buffer.from(BODY))).toBe(expected);
  });

  it('verifies a good signature, over a string or the raw bytes, in either case of hex', () => {
    const signature = signPayload(SECRET, BODY);
    expect(verifySignature(SECRET, BODY, signature)).toBe(true);
    expect(verifySignature(SECRET, Buffer.from(BODY), signature)).toBe(true);
    expect(verifySignature(SECRET, BODY, signature.toUpperCase())).toBe(true);
    expect(verifySignature(SECRET, BODY, ` ${signature}\t`)).toBe(true);
  });

  it('refuses a tampered body, including a re-serialised one', () => {
    const signature = signPayload(SECRET, BODY);
    expect(verifySignature(SECRET, BODY.replace('"1"', '"2"'), signature)).toBe(false);
    expect(verifySignature(SECRET, JSON.stringify(JSON.parse(BODY), null, 2), signature)).toBe(false);
  });

  it('refuses the wrong secret', () => {
    expect(verifySignature('another-secret', BODY, signPayload(SECRET, BODY))).toBe(false);
  });

  it('refuses a missing, non-hex, truncated or over-long signature without throwing', () => {
    const signature = signPayload(SECRET, BODY);
    for (const bad of [
      undefined,
      null,
      '',
      'z'.repeat(64),
      `${signature.slice(0, 63)}g`,
      signature.slice(0, 62),
      `${signature}00`,
      `sha256=${signature}`,
    ]) {
      expect(verifySignature(SECRET, BODY, bad)).toBe(false);
    }
  });

  it('refuses a signature differing in its last digit only (compared over all 32 bytes)', () => {
    const signature = signPayload(SECRET, BODY);
    const last = signature.at(-1) === '0' ? '1' : '0';
    expect(verifySignature(SECRET, BODY, `${signature.slice(0, -1)}${last}`)).toBe(false);
  });
});
