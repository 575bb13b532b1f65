/**
 * Decoding an upstream body, for the JSON answers the proxy rewrites. Everything else passes through
 * still encoded.
 */
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

export type Decoding =
  | { kind: 'identity' }
  | { kind: 'decode'; create: () => Transform }
  /** Several codings, or one node:zlib does not know: the body cannot be read here. */
  | { kind: 'unsupported' };

export function decodingFor(contentEncoding: string | null): Decoding {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return { kind: 'identity' };
  if (codings.length > 1) return { kind: 'unsupported' };
  switch (codings[0]) {
    case 'gzip':
    case 'x-gzip':
      return { kind: 'decode', create: () => zlib.createGunzip() };
    case 'deflate':
      return { kind: 'decode', create: () => zlib.createInflate() };
    case 'br':
      return { kind: 'decode', create: () => zlib.createBrotliDecompress() };
    default:
      return { kind: 'unsupported' };
  }
}
