/**
 * Middleware: refuse a request whose host the server does not answer to (host-policy.ts), with a
 * `421 Misdirected Request` problem that names the settings to change. Runs before every route, so
 * that a page reached under a foreign name (DNS rebinding) gets neither the app nor an API answer.
 */
import type { MiddlewareHandler } from 'hono';
import type { HostPolicy } from './host-policy';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import { requestFacts } from './request-connection';

/** `''` for the app server's settings, `'REFERENCE_'` for the reference service's. */
export type SettingsPrefix = '' | 'REFERENCE_';

export function hostGuard(policy: HostPolicy, prefix: SettingsPrefix): MiddlewareHandler {
  return async (c, next) => {
    const facts = requestFacts(c);
    if (!policy.allows(facts)) return problemResponse(misdirected(policy.requested(facts), prefix));
    await next();
  };
}

function misdirected(requested: { host: string | undefined; forwarded: boolean }, prefix: SettingsPrefix) {
  const shown = requested.host === undefined ? undefined : JSON.stringify(requested.host.slice(0, 200));
  const what =
    shown === undefined
      ? 'The request names no host (no Host header), so this server cannot tell it is meant for it.'
      : `This server does not answer to the host ${shown}${requested.forwarded ? ' (forwarded by a trusted proxy)' : ''}.`;
  return new ProblemError(
    '421-001',
    `${what} If it is reached under this name, add the name to ${prefix}ALLOWED_HOSTS or set ` +
      `${prefix}PUBLIC_URL to the address it is reached at; behind a reverse proxy, also set ` +
      `${prefix}TRUST_PROXY to the proxy's address so that the host it forwards is the one checked.`,
    { errors: [{ pointer: null, detail: `Host: ${requested.host?.slice(0, 200) ?? '(none)'}` }] },
  );
}
