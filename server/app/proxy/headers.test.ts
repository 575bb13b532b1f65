import { describe, expect, it } from 'vitest';
import { decodingFor } from './decode';
import {
  acceptEncodingForUpstream,
  clientResponseHeaders,
  isJsonContentType,
  upstreamRequestHeaders,
} from './headers';

describe('upstreamRequestHeaders', () => {
  it('drops hop-by-hop headers, the ones named in Connection, and the browser credentials', () => {
    const out = upstreamRequestHeaders(
      new Headers({
        Connection: 'keep-alive, X-Per-Hop',
        'X-Per-Hop': '1',
        'Keep-Alive': 'timeout=5',
        'Transfer-Encoding': 'chunked',
        TE: 'trailers',
        Trailer: 'x-sum',
        Upgrade: 'websocket',
        'Proxy-Authorization': 'Basic x',
        'Proxy-Foo': 'bar',
        Host: 'localhost:8080',
        Authorization: 'Bearer from-browser',
        Cookie: 'session=1',
        Origin: 'http://localhost:8080',
        Referer: 'http://localhost:8080/jobs',
        'Accept-Encoding': 'gzip, deflate, br, zstd',
        Expect: '100-continue',
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': '123',
        Accept: 'application/json',
      }),
      'server-key',
    );
    expect(Object.fromEntries(out)).toEqual({
      authorization: 'server-key',
      'accept-encoding': 'gzip, deflate, br',
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': '123',
      accept: 'application/json',
    });
  });

  it('sets the server key even when the browser sent none', () => {
    expect(upstreamRequestHeaders(new Headers(), 'Token k').get('authorization')).toBe('Token k');
  });
});

describe('clientResponseHeaders', () => {
  it('drops hop-by-hop headers and what belongs to the upstream origin', () => {
    const upstream = new Headers({
      Connection: 'x-per-hop',
      'X-Per-Hop': '1',
      'Keep-Alive': 'timeout=5',
      'Transfer-Encoding': 'chunked',
      'Proxy-Authenticate': 'Basic',
      'Strict-Transport-Security': 'max-age=1',
      'Alt-Svc': 'h3=":443"',
      'Content-Type': 'application/json',
      'Retry-After': '7',
      Location: 'https://x/v2/y',
    });
    upstream.append('Set-Cookie', 'a=1');
    expect(Object.fromEntries(clientResponseHeaders(upstream))).toEqual({
      'content-type': 'application/json',
      'retry-after': '7',
      location: 'https://x/v2/y',
    });
  });

  it('keeps Content-Encoding and Content-Length: bodies pass through as received', () => {
    const out = clientResponseHeaders(new Headers({ 'Content-Encoding': 'gzip', 'Content-Length': '10' }));
    expect(Object.fromEntries(out)).toEqual({ 'content-encoding': 'gzip', 'content-length': '10' });
  });
});

describe('acceptEncodingForUpstream', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'gzip, deflate, br'],
    ['gzip;q=1.0, identity; q=0.5, *;q=0', 'gzip;q=1.0, identity; q=0.5'],
    ['zstd', 'identity'],
    ['', 'identity'],
    [null, 'identity'],
  ])('%s → %s', (value, expected) => {
    expect(acceptEncodingForUpstream(value)).toBe(expected);
  });
});

describe('decodingFor', () => {
  it.each([
    [null, 'identity'],
    ['identity', 'identity'],
    ['gzip', 'decode'],
    ['X-Gzip', 'decode'],
    ['deflate', 'decode'],
    ['br', 'decode'],
    ['zstd', 'unsupported'],
    ['deflate, gzip', 'unsupported'],
  ])('%s → %s', (value, kind) => {
    expect(decodingFor(value).kind).toBe(kind);
  });
});

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/Problem+JSON', true],
    ['application/vnd.api+json', true],
    ['text/json', false],
    ['application/jsonl', false],
    ['application/pdf', false],
    [null, false],
  ])('%s → %s', (value, expected) => {
    expect(isJsonContentType(value)).toBe(expected);
  });
});
