/**
 * Which `Host` a server answers to: the defence against DNS rebinding.
 *
 * A web page whose name its owner points at 127.0.0.1 once it has loaded (DNS rebinding) becomes, for
 * the browser, the same origin as our server: it can then read every answer. What gives it away is the
 * `Host` header, which still carries the attacker's name. So a server refuses any `Host` it does not
 * know as its own:
 *
 * - the names of the loopback interface (`localhost` and `*.localhost`, `127.x.x.x`, `[::1]`) when the
 *   connection arrived on loopback, and the address the connection arrived on (the address it listens
 *   on, or for a wildcard listener the interface used). Browsers resolve these themselves and never
 *   ask an attacker's DNS for them, so their port is not checked: a container's port mapping or a
 *   local TLS proxy may put another port in `Host` (the approach of Vite's and webpack's dev servers);
 * - the host of the public URL (`PUBLIC_URL`), any port;
 * - each entry of the allowed hosts (`ALLOWED_HOSTS`): `name`, `name:port`, `.example.com` for a
 *   domain and its subdomains, or `*` for anything (which turns the check off).
 *
 * Behind a trusted proxy (`TRUST_PROXY`), the host it forwards (`X-Forwarded-Host`/`Forwarded`) is the
 * one checked, as it is what the browser asked for.
 *
 * Pure, apart from reading the connection of a request (host-guard.ts applies it).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { forwardedOrigin, isPlainHost, type PeerCheck } from './trusted-proxy';

/** One entry of an allowed-hosts setting, parsed. */
export type HostPattern =
  { kind: 'any' } | { kind: 'exact' | 'domain'; hostname: string; port: number | undefined };

/** A host as compared: lower case, no trailing dot, IPv6 in brackets; port as written, if any. */
export interface Authority {
  hostname: string;
  port: number | undefined;
}

/** `name`, `name:port`, `[::1]:8080`; undefined when it is not a plain host (path, user info, spaces). */
export function parseAuthority(host: string): Authority | undefined {
  if (!isPlainHost(host)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${host}/`);
  } catch {
    return undefined;
  }
  const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
  if (hostname === '') return undefined;
  // URL drops a port that is the scheme's default; keep what was written.
  const written = /:(\d+)$/.exec(host)?.[1];
  return { hostname, port: written !== undefined ? Number(written) : undefined };
}

/**
 * An entry of ALLOWED_HOSTS / REFERENCE_ALLOWED_HOSTS: `*`, `name`, `name:port`, `.domain`
 * (the domain and every subdomain), IP addresses (IPv6 in brackets). Undefined when malformed.
 */
export function parseHostPattern(entry: string): HostPattern | undefined {
  const trimmed = entry.trim();
  if (trimmed === '*') return { kind: 'any' };
  const domain = trimmed.startsWith('.');
  const authority = parseAuthority(domain ? trimmed.slice(1) : trimmed);
  if (authority === undefined || (domain && authority.hostname.startsWith('['))) return undefined;
  return { kind: domain ? 'domain' : 'exact', ...authority };
}

export function matchesPattern(pattern: HostPattern, host: Authority): boolean {
  if (pattern.kind === 'any') return true;
  if (pattern.port !== undefined && pattern.port !== host.port) return false;
  if (pattern.kind === 'exact') return host.hostname === pattern.hostname;
  return host.hostname === pattern.hostname || host.hostname.endsWith(`.${pattern.hostname}`);
}

/** The local end of the connection a request arrived on. */
export interface LocalEndpoint {
  address: string;
}

/** Whether a host names the loopback interface: `localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`. */
export function isLoopbackName(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) !== 0 && ipaddr.process(bare).range() === 'loopback';
}

/** `::ffff:127.0.0.1` is `127.0.0.1`; IPv6 as a URL writes it (`[::1]`). */
function addressAsHostname(address: string): string | undefined {
  if (isIP(address) === 0) return undefined;
  const parsed = ipaddr.process(address);
  return parsed.kind() === 'ipv6' ? `[${parsed.toString()}]` : parsed.toString();
}

/** Whether a host is the connection's own: a loopback name on loopback, or the local address itself. */
export function isLocalName(host: Authority, local: LocalEndpoint): boolean {
  const own = addressAsHostname(local.address);
  if (own === undefined) return false;
  if (host.hostname === own) return true;
  return isLoopbackName(own) && isLoopbackName(host.hostname);
}

export interface HostPolicyOptions {
  /** PUBLIC_URL: its host is allowed, on any port. */
  publicUrl?: string | undefined;
  /** ALLOWED_HOSTS entries (checked at start: readEnv refuses malformed ones). */
  allowedHosts?: readonly string[];
  /** Peers whose forwarded host is the one checked. Default nobody. */
  trustProxy?: PeerCheck;
}

export interface HostPolicy {
  /** Whether every host is allowed (`*`): the start-up warns. */
  readonly allowsAny: boolean;
  /** The host the client asked for, and its protocol, as this request tells them. */
  requested(request: RequestFacts): RequestedOrigin;
  /** Whether this request's host is one the server answers to. */
  allows(request: RequestFacts): boolean;
}

/** What a policy needs to know of a request. */
export interface RequestFacts {
  headers: Headers;
  /** The connection; undefined for an in-process call (`app.request()`), which no browser can make. */
  connection: { localAddress: string; remoteAddress: string | undefined; encrypted: boolean } | undefined;
}

export interface RequestedOrigin {
  /** The `Host` header, or the forwarded host from a trusted proxy. */
  host: string | undefined;
  proto: 'http' | 'https';
  /** Whether a trusted proxy told us the host or protocol. */
  forwarded: boolean;
}

export function hostPolicy(options: HostPolicyOptions): HostPolicy {
  const patterns = (options.allowedHosts ?? []).map((entry) => {
    const pattern = parseHostPattern(entry);
    if (pattern === undefined) throw new Error(`not a host: ${JSON.stringify(entry)}`);
    return pattern;
  });
  if (options.publicUrl !== undefined) {
    patterns.push({ kind: 'exact', hostname: new URL(options.publicUrl).hostname, port: undefined });
  }
  const trusted = options.trustProxy ?? (() => false);

  const requested = (request: RequestFacts): RequestedOrigin => {
    const hostHeader = request.headers.get('host') ?? undefined;
    const proto = request.connection?.encrypted === true ? 'https' : 'http';
    if (request.connection === undefined || !trusted(request.connection.remoteAddress)) {
      return { host: hostHeader, proto, forwarded: false };
    }
    const forwarded = forwardedOrigin(request.headers);
    return {
      host: forwarded.host ?? hostHeader,
      proto: forwarded.proto ?? proto,
      forwarded: forwarded.host !== undefined || forwarded.proto !== undefined,
    };
  };

  return {
    allowsAny: patterns.some((pattern) => pattern.kind === 'any'),
    requested,
    allows(request) {
      // Nothing reaches an in-process call but the test or program that made it.
      if (request.connection === undefined) return true;
      const raw = requested(request).host;
      const host = raw === undefined ? undefined : parseAuthority(raw);
      if (host === undefined) return false;
      if (isLocalName(host, { address: request.connection.localAddress })) return true;
      return patterns.some((pattern) => matchesPattern(pattern, host));
    },
  };
}
