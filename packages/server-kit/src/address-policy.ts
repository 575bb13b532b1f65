/**
 * Which addresses the servers' own outgoing requests may reach: the reference service's `url` input
 * (API-FACTS: "URL input HTTPS only, public") and the app server's integration webhooks
 * (webhook-address.ts). Public unicast only, so that neither server can be used to reach its own
 * machine or network (SSRF), cloud metadata (169.254.169.254) included. Refused:
 * loopback, private, link-local, unique-local, carrier-grade NAT, multicast, broadcast, reserved and
 * documentation ranges, the unspecified address, and IPv6 forms that embed an IPv4 address of those
 * (IPv4-mapped, NAT64, 6to4, Teredo): whatever ipaddr.js does not class as `unicast`.
 *
 * The allow-list (REFERENCE_URL_ALLOW_HOSTS, ALLOW_PRIVATE_WEBHOOKS): host names, addresses or CIDR
 * ranges reachable although not public (tests serve on 127.0.0.1; a receiver on the company network).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Why an address is not public, in words: `loopback`, `private`, `link-local`… (ipaddr.js's range). */
export function rangeName(address: string): string {
  if (isIP(address) === 0) return 'not an address';
  const range = ipaddr.process(address).range();
  return RANGE_NAMES[range] ?? range.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

const RANGE_NAMES: Record<string, string> = {
  linkLocal: 'link-local (where cloud metadata services answer)',
  uniqueLocal: 'unique-local (private)',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
};

export interface AddressPolicy {
  /** Whether `host` (the URL's host name, lower case) may resolve to `address`. */
  allows(host: string, address: string): boolean;
}

export function addressPolicy(allowHosts: readonly string[] = []): AddressPolicy {
  const names = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of allowHosts.map((e) => e.trim().toLowerCase()).filter((e) => e !== '')) {
    const bare = entry.replace(/^\[(.*)\]$/, '$1');
    if (bare.includes('/') && ipaddr.isValidCIDR(bare)) ranges.push(ipaddr.parseCIDR(bare));
    else if (isIP(bare) !== 0) {
      const address = ipaddr.process(bare);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else names.add(bare);
  }
  const listed = (address: string): boolean => {
    const parsed = ipaddr.process(address);
    return ranges.some(([base, bits]) => parsed.kind() === base.kind() && parsed.match(base, bits));
  };
  return {
    allows: (host, address) => {
      if (isIP(address) === 0) return false;
      return isPublicAddress(address) || names.has(host.toLowerCase()) || listed(address);
    },
  };
}
