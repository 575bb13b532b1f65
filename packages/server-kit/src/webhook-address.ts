/**
 * Where an integration's webhook may go (issue 18): the app server POSTs confirmed documents' values to
 * a URL an admin typed, so without a check it could be made to call its own machine, its network or
 * the cloud's metadata service (169.254.169.254) for whoever can read the delivery log. Only public
 * addresses are taken (address-policy.ts: loopback, private, link-local, unique-local, carrier-grade
 * NAT, multicast, unspecified and reserved refused), unless ALLOW_PRIVATE_WEBHOOKS names the host,
 * the address or its range.
 *
 * The check runs twice: when the URL is set (the admin learns at once), and before every attempt,
 * since a name's addresses may change after it was set. At an attempt the name is resolved once, every
 * address it has must be allowed, and the connection goes to the address that was checked: the
 * request's `lookup` is pinned to it (pinnedLookup), so the socket never resolves the name again and a
 * second answer (DNS rebinding) cannot slip another address in between the check and the connect.
 * TLS still checks the certificate against the URL's name (the host of the request is unchanged).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { addressPolicy, rangeName, type AddressPolicy } from './address-policy';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** A resolver that never answers is an unreachable receiver, not a lane held forever. */
const RESOLVE_TIMEOUT_MS = 10_000;

export type WebhookVetting =
  /** Send to `pinned` only. */
  | { kind: 'allowed'; pinned: ResolvedAddress }
  /** Not a public address and not allowed: never sent there. */
  | { kind: 'refused'; reason: string }
  /** The name does not resolve now (a typo, DNS down, a name not yet made): maybe later. */
  | { kind: 'unresolved'; reason: string };

export class WebhookAddressGuard {
  private readonly policy: AddressPolicy;

  /**
   * @param allowPrivate ALLOW_PRIVATE_WEBHOOKS: host names, addresses or CIDR ranges allowed although
   *   not public. Empty (the default): public addresses only.
   */
  constructor(
    allowPrivate: readonly string[] = [],
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.policy = addressPolicy(allowPrivate);
  }

  /** Whether `url` may be called now, and at which address. */
  async vet(url: URL): Promise<WebhookVetting> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const literal = isIP(host);
    if (literal !== 0) {
      return this.policy.allows(host, host)
        ? { kind: 'allowed', pinned: { address: host, family: literal === 6 ? 6 : 4 } }
        : { kind: 'refused', reason: barred(`The webhook URL's address ${host} is`, host) };
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await withTimeout(this.resolve(host), RESOLVE_TIMEOUT_MS);
    } catch (error) {
      return {
        kind: 'unresolved',
        reason: `the webhook URL's host ${host} could not be resolved (${code(error)})`,
      };
    }
    const [first] = addresses;
    if (first === undefined)
      return { kind: 'unresolved', reason: `the webhook URL's host ${host} has no address` };
    // Every address, not only the one used: a name that also points inside is not a public receiver.
    const refused = addresses.find(({ address }) => !this.policy.allows(host, address));
    if (refused !== undefined)
      return {
        kind: 'refused',
        reason: barred(`The webhook URL's host ${host} is at ${refused.address},`, refused.address),
      };
    return { kind: 'allowed', pinned: first };
  }
}

const barred = (subject: string, address: string): string =>
  `${subject} ${withArticle(rangeName(address))} address: webhooks are sent to public addresses only, unless ` +
  'ALLOW_PRIVATE_WEBHOOKS names the host, the address or its range.';

const withArticle = (words: string): string => `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;

/**
 * The `lookup` of a request that must connect to `pinned` and nowhere else, whatever the name
 * resolves to by then. Node asks with `all` (happy eyeballs, autoSelectFamily) or without.
 */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ETIMEOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function code(error: unknown): string {
  const value = (error as { code?: unknown } | null)?.code;
  if (typeof value === 'string') return value;
  return error instanceof Error ? error.message : String(error);
}
