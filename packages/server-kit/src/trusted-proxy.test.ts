/** The client address behind a trusted proxy: the proxy's report taken, a client's own header never. */
import { describe, expect, it } from 'vitest';
import { clientAddress, trustedPeers } from './trusted-proxy';

const headers = (init: Record<string, string>) => new Headers(init);

describe('clientAddress', () => {
  const trusted = trustedPeers(['loopback', '10.0.0.0/8']);

  it('is the peer when the peer is no trusted proxy, whatever the headers say', () => {
    expect(clientAddress(headers({ 'X-Forwarded-For': '1.1.1.1' }), '203.0.113.9', trusted)).toBe(
      '203.0.113.9',
    );
    expect(clientAddress(headers({}), '::ffff:203.0.113.9', trusted)).toBe('203.0.113.9');
    expect(clientAddress(headers({}), undefined, trusted)).toBeUndefined();
  });

  it('takes the first hop from the right that no trusted proxy added', () => {
    // The client wrote 6.6.6.6 itself; the outer proxy (10.0.0.2) appended the real client.
    const sent = headers({ 'X-Forwarded-For': '6.6.6.6, 198.51.100.7, 10.0.0.2' });
    expect(clientAddress(sent, '127.0.0.1', trusted)).toBe('198.51.100.7');
    expect(clientAddress(headers({ 'X-Forwarded-For': '198.51.100.7:51234' }), '::1', trusted)).toBe(
      '198.51.100.7',
    );
    expect(clientAddress(headers({ 'X-Forwarded-For': '10.0.0.5, 10.0.0.2' }), '::1', trusted)).toBe(
      '10.0.0.5',
    );
  });

  it('reads Forwarded when there is no X-Forwarded-For, and keeps the peer for unknown values', () => {
    const forwarded = headers({ Forwarded: 'for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"' });
    expect(clientAddress(forwarded, '127.0.0.1', trusted)).toBe('2001:db8::1');
    expect(clientAddress(headers({ Forwarded: 'for=unknown' }), '127.0.0.1', trusted)).toBe('127.0.0.1');
    expect(clientAddress(headers({ 'X-Forwarded-For': 'garbage' }), '127.0.0.1', trusted)).toBe('127.0.0.1');
  });

  it('trusts nobody with an empty list', () => {
    const sent = headers({ 'X-Forwarded-For': '198.51.100.7' });
    expect(clientAddress(sent, '127.0.0.1', trustedPeers([]))).toBe('127.0.0.1');
  });
});
