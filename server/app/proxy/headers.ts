/**
 * Header hygiene for the proxy, both ways. Pure functions over `Headers`.
 *
 * Modelled on Hono's proxy helper (`hono/src/helper/proxy/index.ts`): hop-by-hop headers
 * (RFC 9110 §7.6.1) and the ones named in `Connection` belong to one connection and are never
 * forwarded. On top of that, the browser's credentials never reach the upstream: the server sets its
 * own `Authorization`, and the browser's cookies stay with our origin.
 */

/** Hop-by-hop headers (RFC 9110 §7.6.1, plus the legacy `keep-alive` and `proxy-connection`). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
]);

/**
 * Request headers never forwarded upstream, besides hop-by-hop ones:
 * - `host`: set from the upstream URL;
 * - `authorization`, `cookie`: the browser's credentials; the server sets its own `Authorization`;
 * - `origin`, `referer`: the upstream sees a server-to-server call, not a browser one;
 * - `expect`: Node's server has already answered `100-continue`.
 * `accept-encoding` is narrowed to the codings the proxy can decode itself (see below).
 */
const REQUEST_DROPPED = new Set(['host', 'authorization', 'cookie', 'origin', 'referer', 'expect']);

/** Content codings that node:zlib decodes, so the proxy can read (and rewrite) any JSON answer. */
const DECODABLE = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'identity']);

/**
 * Response headers never passed back, besides hop-by-hop ones: they describe the upstream's origin,
 * not ours (`set-cookie` would plant the upstream's cookies on our origin; `strict-transport-security`
 * and `alt-svc` would pin our origin to the upstream's transport).
 */
const RESPONSE_DROPPED = new Set(['set-cookie', 'strict-transport-security', 'alt-svc']);

function connectionTokens(headers: Headers): Set<string> {
  const value = headers.get('connection');
  if (value == null) return new Set();
  return new Set(
    value
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => token !== ''),
  );
}

function isHopByHop(name: string, listedInConnection: Set<string>): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith('proxy-') || listedInConnection.has(name);
}

/** The headers to send upstream: the browser's, cleaned, with the server's own `Authorization`. */
export function upstreamRequestHeaders(incoming: Headers, authorization: string): Headers {
  const listed = connectionTokens(incoming);
  const out = new Headers();
  for (const [name, value] of incoming) {
    if (isHopByHop(name, listed) || REQUEST_DROPPED.has(name)) continue;
    out.append(name, value);
  }
  out.set('accept-encoding', acceptEncodingForUpstream(incoming.get('accept-encoding')));
  out.set('authorization', authorization);
  return out;
}

/**
 * The browser's `Accept-Encoding` kept to the codings both it and the proxy understand: non-JSON
 * bodies then pass through still encoded (the browser accepted that coding), and JSON bodies can be
 * decoded here to rewrite their URLs. Nothing left (or no header) → `identity`.
 */
export function acceptEncodingForUpstream(value: string | null): string {
  const kept = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => DECODABLE.has(item.split(';', 1)[0]?.trim().toLowerCase() ?? ''));
  return kept.length > 0 ? kept.join(', ') : 'identity';
}

/** The headers to pass back to the browser from an upstream response. */
export function clientResponseHeaders(upstream: Headers): Headers {
  const listed = connectionTokens(upstream);
  const out = new Headers();
  for (const [name, value] of upstream) {
    if (isHopByHop(name, listed) || RESPONSE_DROPPED.has(name)) continue;
    out.append(name, value);
  }
  return out;
}

/** `application/json`, `application/problem+json` and any other `+json` type. */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType == null) return false;
  const essence = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'));
}
