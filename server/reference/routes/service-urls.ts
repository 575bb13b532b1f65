/**
 * Absolute URLs in the service's own base, as the hosted service writes them (`polling_url`,
 * `result_url`, `Location`): the app server's URL rewriting must meet real absolute URLs. Computed
 * when a response is written, never stored, so a job keeps correct URLs across a restart on another
 * port.
 *
 * The base, first that applies:
 * 1. REFERENCE_PUBLIC_URL, when set;
 * 2. when the request comes from a trusted proxy (REFERENCE_TRUST_PROXY), the protocol and host it
 *    forwards (`X-Forwarded-Proto`/`X-Forwarded-Host`, or `Forwarded`), so a client behind TLS
 *    termination gets `https://` URLs;
 * 3. the address the service listens on.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { forwardedOrigin, isPlainHost, type PeerCheck } from '@extraction-review/server-kit/trusted-proxy';

export interface ServiceUrls {
  /** The base itself, without a trailing slash (`https://host:port`): the v1 routes build on it. */
  base(): string;
  job(jobId: string): string;
  result(inferenceId: string): string;
}

export interface UrlBaseOptions {
  /** REFERENCE_PUBLIC_URL. */
  publicUrl?: string;
  /** The URL the service listens on (known once it listens). */
  listeningUrl: () => string;
  /** Peers whose forwarded headers are believed; default nobody. */
  trustProxy?: PeerCheck;
}

/** The URLs to write in the answer to this request. */
export type UrlsForRequest = (c: Context) => ServiceUrls;

export function serviceUrls(options: UrlBaseOptions): UrlsForRequest {
  return (c) => urlsUnder(() => baseFor(c, options));
}

/** URLs under one fixed base (for code that answers no request). */
export function urlsUnder(base: () => string): ServiceUrls {
  const root = (): string => base().replace(/\/+$/, '');
  return {
    base: root,
    job: (jobId) => `${root()}/v2/jobs/${jobId}`,
    result: (inferenceId) => `${root()}/v2/products/extraction/results/${inferenceId}`,
  };
}

function baseFor(c: Context, options: UrlBaseOptions): string {
  if (options.publicUrl !== undefined) return options.publicUrl;
  const listening = options.listeningUrl();
  if (!options.trustProxy?.(peerAddress(c))) return listening;
  const forwarded = forwardedOrigin(c.req.raw.headers);
  const proto = forwarded.proto ?? new URL(listening).protocol.replace(':', '');
  const hostHeader = c.req.header('host');
  const host =
    forwarded.host ??
    (hostHeader !== undefined && isPlainHost(hostHeader) ? hostHeader : new URL(listening).host);
  return `${proto}://${host}`;
}

/** The TCP peer; undefined when the app is called in-process (`app.request()`), with no socket. */
function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
