/**
 * What a sign-in with the OpenID Connect provider keeps between its start and the way back: the
 * state, the nonce, the PKCE verifier and the redirect URI, in a cookie of the browser that started
 * it (so any app-server copy can finish it), signed with a key derived from the client secret (so it
 * cannot be made or altered without it), HttpOnly (no script reads the verifier) and short-lived.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const OIDC_STATE_COOKIE = 'er_oidc';
/** How long a person may take at the provider before the way back is refused (401-017). */
export const OIDC_STATE_TTL_MS = 10 * 60 * 1000;

export const PendingSignIn = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(1),
  redirectUri: z.url(),
  /** Until when (epoch ms) the way back is taken. */
  expiresAt: z.number().int(),
});
export type PendingSignIn = z.infer<typeof PendingSignIn>;

/** The signing key: a key of its own, derived from the secret, never the secret itself. */
export function stateCookieKey(clientSecret: string): Buffer {
  return createHmac('sha256', clientSecret).update('extraction-review oidc state cookie v1').digest();
}

export function sealPendingSignIn(pending: PendingSignIn, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(pending)).toString('base64url');
  return `${body}.${signature(body, key)}`;
}

/** The pending sign-in of a cookie, if its signature holds and it has not expired; else undefined. */
export function openPendingSignIn(
  sealed: string | undefined,
  key: Buffer,
  now: number,
): PendingSignIn | undefined {
  if (sealed === undefined) return undefined;
  const [body, mac, ...rest] = sealed.split('.');
  if (body === undefined || mac === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(signature(body, key));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const pending = PendingSignIn.safeParse(parsed);
  if (!pending.success || pending.data.expiresAt <= now) return undefined;
  return pending.data;
}

function signature(body: string, key: Buffer): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}
