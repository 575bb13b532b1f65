/**
 * Which peers may tell us, through `X-Forwarded-Proto`/`X-Forwarded-Host` or `Forwarded` (RFC 7239),
 * the address a client used: a TLS-terminating proxy in front of the service. Off by default; headers
 * from any other peer are ignored, so a client cannot make the service write URLs of its choosing.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type PeerCheck = (address: string | undefined) => boolean;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

const LOOPBACK: readonly string[] = ['127.0.0.0/8', '::1/128'];

/**
 * `entries`: `loopback`, IP addresses and CIDR ranges (checked by readEnv). An empty list trusts
 * nobody.
 */
export function trustedPeers(entries: readonly string[]): PeerCheck {
  const ranges: Range[] = entries
    .flatMap((entry) => (entry === 'loopback' ? LOOPBACK : [entry]))
    .map(toRange);
  if (ranges.length === 0) return () => false;
  return (address) => {
    if (address === undefined || isIP(address) === 0) return false;
    const peer = ipaddr.process(address); // ::ffff:127.0.0.1 is 127.0.0.1
    return ranges.some(([base, bits]) => peer.kind() === base.kind() && peer.match(base, bits));
  };
}

function toRange(entry: string): Range {
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const address = ipaddr.process(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

export interface ForwardedOrigin {
  proto: 'http' | 'https' | undefined;
  host: string | undefined;
}

/**
 * The first (client-side) hop's protocol and host, from `X-Forwarded-Proto`/`X-Forwarded-Host`, else
 * from `Forwarded`. Values that are not a plain protocol or host are dropped.
 */
export function forwardedOrigin(headers: Headers): ForwardedOrigin {
  let proto = firstValue(headers.get('x-forwarded-proto'));
  let host = firstValue(headers.get('x-forwarded-host'));
  if (proto === undefined && host === undefined) {
    const first = firstValue(headers.get('forwarded'));
    for (const pair of first?.split(';') ?? []) {
      const [name = '', raw = ''] = pair.split('=', 2).map((part) => part.trim());
      const value = raw.replace(/^"(.*)"$/, '$1');
      if (name.toLowerCase() === 'proto') proto = value;
      if (name.toLowerCase() === 'host') host = value;
    }
  }
  const cleanProto = proto?.toLowerCase();
  return {
    proto: cleanProto === 'http' || cleanProto === 'https' ? cleanProto : undefined,
    host: host !== undefined && isPlainHost(host) ? host : undefined,
  };
}

const firstValue = (header: string | null): string | undefined => {
  const first = header?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
};

/** `name`, `name:port`, `1.2.3.4:port`, `[::1]:port`; nothing with a path, user info or spaces. */
export function isPlainHost(host: string): boolean {
  if (!/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return false;
  try {
    return new URL(`http://${host}/`).hostname !== '';
  } catch {
    return false;
  }
}
