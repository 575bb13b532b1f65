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

/**
 * The client's address, for what is counted per client (the sign-in limits): the connection's peer,
 * or, when that peer is a trusted proxy, the address the proxies report. `X-Forwarded-For` is read
 * from its right end, each trusted proxy's hop skipped, so the first address no trusted proxy added
 * is taken: a client cannot choose its address by sending the header itself (the proxy appends to
 * it). Without that header, `Forwarded`'s last `for=`. An unreadable or hidden value (`unknown`,
 * `_obfuscated`) leaves the peer's address. IPv4-mapped IPv6 is written as IPv4.
 */
export function clientAddress(
  headers: Headers,
  peer: string | undefined,
  trusted: PeerCheck,
): string | undefined {
  if (!trusted(peer)) return plainAddress(peer) ?? peer;
  const hops = forwardedHops(headers);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i]);
    if (hop === undefined) break;
    if (i === 0 || !trusted(hop)) return hop;
  }
  return plainAddress(peer) ?? peer;
}

function forwardedHops(headers: Headers): string[] {
  const xff = headers.get('x-forwarded-for');
  if (xff !== null && xff.trim() !== '') return xff.split(',').map((part) => part.trim());
  const forwarded = headers.get('forwarded');
  if (forwarded === null) return [];
  return forwarded.split(',').flatMap((element) => {
    for (const pair of element.split(';')) {
      const [name = '', raw = ''] = pair.split('=', 2).map((part) => part.trim());
      if (name.toLowerCase() === 'for') return [raw.replace(/^"(.*)"$/, '$1')];
    }
    return [];
  });
}

/** `1.2.3.4`, `1.2.3.4:5678`, `::1`, `[::1]:5678` as a plain address; undefined when none. */
function plainAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let text = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1] !== undefined) text = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  if (isIP(text) === 0) return undefined;
  return ipaddr.process(text).toString();
}
