/**
 * Which addresses a `url` input may reach: public unicast only (API-FACTS: "URL input HTTPS only,
 * public"), so that the service cannot be used to reach its own machine or network (SSRF). Refused:
 * loopback, private, link-local, unique-local, carrier-grade NAT, multicast, broadcast, reserved and
 * documentation ranges, the unspecified address, and IPv6 forms that embed an IPv4 address of those
 * (IPv4-mapped, NAT64, 6to4, Teredo): whatever ipaddr.js does not class as `unicast`.
 *
 * The allow-list (REFERENCE_URL_ALLOW_HOSTS) is for tests, which serve files on 127.0.0.1: host names,
 * addresses or CIDR ranges reachable although not public.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  return ipaddr.process(address).range() === 'unicast';
}

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
