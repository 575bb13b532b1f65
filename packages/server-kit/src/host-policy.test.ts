/** The Host rules as pure functions: hosts, patterns, loopback names, forwarded hosts. */
import { describe, expect, it } from 'vitest';
import {
  hostPolicy,
  isLoopbackName,
  isLocalName,
  matchesPattern,
  parseAuthority,
  parseHostPattern,
  type RequestFacts,
} from './host-policy';
import { trustedPeers } from './trusted-proxy';

describe('parseAuthority', () => {
  it('reads name, port, IPv6, case and a trailing dot', () => {
    expect(parseAuthority('Review.Example.COM')).toEqual({ hostname: 'review.example.com', port: undefined });
    expect(parseAuthority('localhost.:8080')).toEqual({ hostname: 'localhost', port: 8080 });
    expect(parseAuthority('[::1]:8080')).toEqual({ hostname: '[::1]', port: 8080 });
    expect(parseAuthority('example.com:80')).toEqual({ hostname: 'example.com', port: 80 });
    // An IPv4 address in another notation is the address browsers and URL parsers mean.
    expect(parseAuthority('2130706433:8080')).toEqual({ hostname: '127.0.0.1', port: 8080 });
  });

  it('refuses what is not a plain host', () => {
    for (const host of ['', 'evil@127.0.0.1', 'a b', 'host/path', 'host?x', 'host:99999', ':80']) {
      expect(parseAuthority(host), host).toBeUndefined();
    }
  });
});

describe('parseHostPattern and matchesPattern', () => {
  const matches = (entry: string, host: string) => {
    const pattern = parseHostPattern(entry);
    const authority = parseAuthority(host);
    if (pattern === undefined || authority === undefined) throw new Error(`bad case ${entry} ${host}`);
    return matchesPattern(pattern, authority);
  };

  it('matches a name on any port, name:port on that port only', () => {
    expect(matches('review.internal', 'review.internal')).toBe(true);
    expect(matches('review.internal', 'REVIEW.internal:8080')).toBe(true);
    expect(matches('review.internal', 'x.review.internal')).toBe(false);
    expect(matches('box.lan:8443', 'box.lan:8443')).toBe(true);
    expect(matches('box.lan:8443', 'box.lan')).toBe(false);
    expect(matches('[fd00::1]', '[fd00::1]:80')).toBe(true);
    expect(matches('10.0.0.5:8080', '10.0.0.5:8080')).toBe(true);
  });

  it('matches a .domain and its subdomains, not look-alikes', () => {
    expect(matches('.corp.example', 'corp.example')).toBe(true);
    expect(matches('.corp.example', 'a.b.corp.example:1')).toBe(true);
    expect(matches('.corp.example', 'xcorp.example')).toBe(false);
    expect(matches('.corp.example', 'corp.example.evil.test')).toBe(false);
  });

  it('matches anything with *', () => {
    expect(matches('*', 'anything.example:1')).toBe(true);
  });

  it('refuses malformed entries', () => {
    for (const entry of ['', 'https://x.example', 'x.example/', 'user@x', '.', '.[::1]', 'a b', '**']) {
      expect(parseHostPattern(entry), entry).toBeUndefined();
    }
  });
});

describe('loopback names', () => {
  it('knows localhost, *.localhost, 127.0.0.0/8 and [::1]', () => {
    for (const name of ['localhost', 'app.localhost', '127.0.0.1', '127.9.8.7', '[::1]', '::1']) {
      expect(isLoopbackName(name), name).toBe(true);
    }
    for (const name of ['localhost.evil.example', 'notlocalhost', '10.0.0.1', '[fd00::1]', '0.0.0.0']) {
      expect(isLoopbackName(name), name).toBe(false);
    }
  });

  it("takes loopback names as the connection's own only on loopback", () => {
    const onLoopback = { address: '127.0.0.1' };
    const onLan = { address: '192.168.1.20' };
    const mapped = { address: '::ffff:127.0.0.1' };
    const host = (name: string) => parseAuthority(name) ?? { hostname: '', port: undefined };
    expect(isLocalName(host('localhost:1'), onLoopback)).toBe(true);
    expect(isLocalName(host('[::1]'), mapped)).toBe(true);
    expect(isLocalName(host('localhost'), onLan)).toBe(false);
    expect(isLocalName(host('192.168.1.20:8080'), onLan)).toBe(true);
    expect(isLocalName(host('192.168.1.21'), onLan)).toBe(false);
  });
});

describe('hostPolicy', () => {
  const facts = (headers: Record<string, string>, remoteAddress = '127.0.0.1'): RequestFacts => ({
    headers: new Headers(headers),
    connection: { localAddress: '127.0.0.1', remoteAddress, encrypted: false },
  });

  it("allows its own names, PUBLIC_URL's host and the allowed hosts", () => {
    const policy = hostPolicy({ publicUrl: 'https://review.example.com/', allowedHosts: ['box.lan'] });
    expect(policy.allows(facts({ host: 'localhost:8080' }))).toBe(true);
    expect(policy.allows(facts({ host: 'review.example.com' }))).toBe(true);
    expect(policy.allows(facts({ host: 'box.lan:9' }))).toBe(true);
    expect(policy.allows(facts({ host: 'evil.example' }))).toBe(false);
    expect(policy.allows(facts({}))).toBe(false);
    expect(policy.allowsAny).toBe(false);
    expect(hostPolicy({ allowedHosts: ['*'] }).allowsAny).toBe(true);
  });

  it('checks the forwarded host and protocol from a trusted proxy only', () => {
    const policy = hostPolicy({
      allowedHosts: ['review.example.com'],
      trustProxy: trustedPeers(['loopback']),
    });
    const viaProxy = facts({
      host: '127.0.0.1:8080',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(policy.allows(viaProxy)).toBe(false);
    expect(policy.requested(viaProxy)).toEqual({ host: 'evil.example', proto: 'https', forwarded: true });
    const fromElsewhere = facts({ host: '127.0.0.1:8080', 'x-forwarded-host': 'evil.example' }, '10.1.2.3');
    expect(policy.allows(fromElsewhere)).toBe(true);
    expect(policy.requested(fromElsewhere)).toEqual({
      host: '127.0.0.1:8080',
      proto: 'http',
      forwarded: false,
    });
  });

  it('lets in-process calls through: no browser can make them', () => {
    const policy = hostPolicy({});
    expect(policy.allows({ headers: new Headers({ host: 'evil.example' }), connection: undefined })).toBe(
      true,
    );
  });

  it('refuses a malformed entry when built', () => {
    expect(() => hostPolicy({ allowedHosts: ['https://x'] })).toThrow(/not a host/);
  });
});
