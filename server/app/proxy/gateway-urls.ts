/**
 * The gateway's absolute URLs. A pipeline's client follows `polling_url`, `result_url` and `Location`
 * as written (the official clients refuse anything but https), so the gateway writes them under the
 * base the client called: PUBLIC_URL when it is set, else the scheme and host of the request, as a
 * trusted proxy forwarded them (TRUST_PROXY) or as the connection and `Host` say. The Host check has
 * already refused hosts the server does not answer to, so the host written back is one of its own.
 */
import type { Context } from 'hono';
import type { HostPolicy } from '@extraction-review/server-kit/host-policy';
import { requestFacts } from '@extraction-review/server-kit/request-connection';
import { createUrlRewriter, type RewriteRule, type UrlRewriter } from './rewrite-urls';

/** Distinct bases seen (names of the server, behind proxies or not): a handful in practice. */
const MAX_CACHED_BASES = 32;

/** `https://review.example.com` or `https://example.com/review`: no trailing slash. */
export function gatewayBase(c: Context, policy: HostPolicy, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) {
    const url = new URL(publicUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }
  const requested = policy.requested(requestFacts(c));
  if (requested.host === undefined) return new URL(c.req.url).origin;
  return `${requested.proto}://${requested.host}`;
}

/**
 * A rewriter per base, from the rules that map each upstream base to a path (`rulesTo(base)`), made
 * once per base and kept.
 */
export function gatewayRewriter(
  rulesTo: (base: string) => RewriteRule[],
  policy: HostPolicy,
  publicUrl: string | undefined,
): (c: Context) => UrlRewriter {
  const cache = new Map<string, UrlRewriter>();
  return (c) => {
    const base = gatewayBase(c, policy, publicUrl);
    let rewriter = cache.get(base);
    if (rewriter === undefined) {
      if (cache.size >= MAX_CACHED_BASES) cache.clear();
      rewriter = createUrlRewriter(rulesTo(base));
      cache.set(base, rewriter);
    }
    return rewriter;
  };
}
