/**
 * Middleware: refuse a state-changing request (anything but GET, HEAD, OPTIONS) that a browser sent
 * from another web site, so that no page an operator visits can make the app server act with the key
 * it holds (a form or a `fetch` POSTed to /api/v2/.../enqueue needs no preflight).
 *
 * - `Origin` present and not the app's own origin (`null` included) → 403;
 * - `Sec-Fetch-Site` `cross-site` or `same-site` (another port or subdomain is another app) → 403;
 * - neither header: not a browser (a script, the official client), so it goes on to the usual
 *   authentication.
 *
 * The app's own origin is the protocol and host the request was sent to (the `Host` header, or what a
 * trusted proxy forwards; the host guard has already checked it) or PUBLIC_URL's origin.
 *
 * Hono's `csrf()` middleware is not used: it checks only form content types, lets a request through
 * when either header passes, refuses scripts that send neither, and answers in plain text rather than
 * problem details.
 */
import type { MiddlewareHandler } from 'hono';
import type { HostPolicy } from '@extraction-review/server-kit/host-policy';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import { requestFacts } from '@extraction-review/server-kit/request-connection';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function crossSiteGuard(policy: HostPolicy, publicUrl: string | undefined): MiddlewareHandler {
  const publicOrigin = publicUrl === undefined ? undefined : new URL(publicUrl).origin;
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site')?.trim().toLowerCase();
    if (origin === undefined && fetchSite === undefined) return next();

    const requested = policy.requested(requestFacts(c));
    const own = ownOrigin(requested.proto, requested.host);
    const allowedOrigins = [own, publicOrigin].filter((o): o is string => o !== undefined);
    const originRefused = origin !== undefined && !allowedOrigins.includes(normaliseOrigin(origin));
    const siteRefused = fetchSite === 'cross-site' || fetchSite === 'same-site';
    if (!originRefused && !siteRefused) return next();

    const from = origin !== undefined ? `Origin: ${origin.slice(0, 200)}` : `Sec-Fetch-Site: ${fetchSite}`;
    return problemResponse(
      new ProblemError(
        '403-003',
        `${c.req.method} ${c.req.path} was sent by a page of another web site (${from}); this server ` +
          `accepts changes only from its own pages (${allowedOrigins.join(', ') || 'its own origin'}). ` +
          'If that origin is the address operators use to reach the app (behind a reverse proxy), set ' +
          'PUBLIC_URL to it, or TRUST_PROXY to the proxy so that the host and protocol it forwards are used.',
        { errors: [{ pointer: null, detail: from }] },
      ),
    );
  };
}

function ownOrigin(proto: string, host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** `HTTP://Example.com:80` is `http://example.com`; `null` and garbage stay as they are (refused). */
function normaliseOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? origin : url.origin;
  } catch {
    return origin;
  }
}
