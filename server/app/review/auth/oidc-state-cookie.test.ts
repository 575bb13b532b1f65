import { describe, expect, it } from 'vitest';
import {
  openPendingSignIn,
  sealPendingSignIn,
  stateCookieKey,
  type PendingSignIn,
} from './oidc-state-cookie';

const key = stateCookieKey('client secret');
const pending: PendingSignIn = {
  state: 's',
  nonce: 'n',
  verifier: 'v',
  redirectUri: 'https://review.example.com/sign-in',
  expiresAt: 2_000,
};

describe('the pending sign-in cookie', () => {
  it('opens what it sealed, until it expires', () => {
    const sealed = sealPendingSignIn(pending, key);
    expect(openPendingSignIn(sealed, key, 1_999)).toEqual(pending);
    expect(openPendingSignIn(sealed, key, 2_000)).toBeUndefined();
  });

  it('refuses one altered, or signed with another secret', () => {
    const sealed = sealPendingSignIn(pending, key);
    const [, mac] = sealed.split('.');
    const altered = `${Buffer.from(JSON.stringify({ ...pending, nonce: 'x' })).toString('base64url')}.${mac}`;
    expect(openPendingSignIn(altered, key, 0)).toBeUndefined();
    expect(openPendingSignIn(sealed, stateCookieKey('another secret'), 0)).toBeUndefined();
    expect(openPendingSignIn('garbage', key, 0)).toBeUndefined();
    expect(openPendingSignIn(undefined, key, 0)).toBeUndefined();
  });
});
