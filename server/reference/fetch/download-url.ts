/**
 * The `url` input: downloads a public HTTPS file to disk, the way the hosted service takes one
 * (API-FACTS: HTTPS only, public, no redirects followed, at most 2048 characters).
 *
 * - The host name is resolved here, every address it resolves to must be allowed (address-policy.ts),
 *   and the connection goes to the resolved address itself, with the original name as TLS server name
 *   (SNI, certificate check) and `Host`: a second resolution cannot swap in another address between
 *   the check and the connection (DNS rebinding).
 * - A 3xx answer is refused (the file is behind a redirection), as is any answer other than 2xx.
 * - The body is streamed to disk and cut at the size limit; the whole download has a time-out.
 * - The type is not taken from `Content-Type`: the caller inspects the bytes.
 */
import { createWriteStream } from 'node:fs';
import { lookup as dnsLookup } from 'node:dns/promises';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { rootCertificates } from 'node:tls';
import { ProblemError } from '@extraction-review/contract/problem';
import type { AddressPolicy } from './address-policy';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface DownloadOptions {
  policy: AddressPolicy;
  maxBytes: number;
  timeoutMs: number;
  /** Extra trusted certificate authorities (PEM), besides Node's usual ones (REFERENCE_URL_CA_FILE). */
  ca?: string;
  /** Default: the system resolver (`dns.lookup`, all addresses). */
  resolve?: Resolver;
}

export interface Downloaded {
  size: number;
  /** From `Content-Disposition`, else the last segment of the URL's path, else the host. */
  filename: string;
}

const POINTER = '#/url';

const refused = (detail: string): ProblemError =>
  new ProblemError('422-005', detail, { errors: [{ pointer: POINTER, detail }] });

export const tooLarge = (maxBytes: number, pointer: string): ProblemError =>
  new ProblemError('413-001', `The file is larger than the limit of ${formatBytes(maxBytes)}.`, {
    errors: [{ pointer, detail: `${pointer.slice(2)} must be at most ${formatBytes(maxBytes)}` }],
  });

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${bytes} bytes`;
}

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export async function downloadUrl(
  raw: string,
  destination: string,
  options: DownloadOptions,
  signal?: AbortSignal,
): Promise<Downloaded> {
  const url = new URL(raw);
  if (url.protocol !== 'https:') throw refused('Only https:// URLs are fetched.');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const stop = signal ? AbortSignal.any([deadline, signal]) : deadline;

  try {
    const addresses = await resolveHost(host, options.resolve ?? systemResolver, stop);
    const barred = addresses.find(({ address }) => !options.policy.allows(host, address));
    if (barred) {
      throw refused(
        `The URL's host ${host} is at ${barred.address}, which is not a public address: only files on ` +
          'the public internet are fetched.',
      );
    }
    // Checked above, and the connection goes to exactly this address.
    const pinned = addresses[0];
    if (!pinned) throw refused(`The URL's host ${host} has no address.`);
    const response = await request(url, host, pinned, options, stop);
    return await save(response, url, destination, options.maxBytes);
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    if (stop.aborted && stop.reason === deadline.reason) {
      throw refused(
        `The file at the URL could not be downloaded within ${formatSeconds(options.timeoutMs)}.`,
      );
    }
    if (signal?.aborted) throw signal.reason;
    throw refused(`The file at the URL could not be downloaded: ${describeError(error)}.`);
  }
}

async function resolveHost(host: string, resolve: Resolver, stop: AbortSignal): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family !== 0) return [{ address: host, family: family === 6 ? 6 : 4 }];
  let addresses: ResolvedAddress[];
  try {
    addresses = await Promise.race([
      resolve(host),
      new Promise<never>((_, reject) => {
        stop.addEventListener('abort', () => reject(stop.reason as Error), { once: true });
      }),
    ]);
  } catch (error) {
    if (stop.aborted) throw error;
    throw refused(`The URL's host ${host} could not be resolved.`);
  }
  if (addresses.length === 0) throw refused(`The URL's host ${host} could not be resolved.`);
  return addresses;
}

function request(
  url: URL,
  host: string,
  pinned: ResolvedAddress,
  options: DownloadOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: pinned.address,
      family: pinned.family,
      port: url.port === '' ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      // SNI and the certificate check use the URL's name; an address literal has no SNI.
      servername: isIP(host) === 0 ? host : undefined,
      headers: {
        Host: url.host,
        Accept: '*/*',
        'Accept-Encoding': 'identity',
        'User-Agent': 'extraction-review-reference',
      },
      ca: options.ca === undefined ? undefined : [...rootCertificates, options.ca],
      agent: false,
      signal,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

async function save(
  response: IncomingMessage,
  url: URL,
  destination: string,
  maxBytes: number,
): Promise<Downloaded> {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    response.resume();
    const location = response.headers.location;
    throw refused(
      `The file at the URL is behind a redirection (HTTP ${status}${location ? ` to ${location}` : ''}); ` +
        'redirections are not followed: give the final address.',
    );
  }
  if (status < 200 || status >= 300) {
    response.resume();
    throw refused(`The URL answered HTTP ${status}, not the file.`);
  }
  if (Number(response.headers['content-length']) > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes, POINTER);
  }

  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) {
        callback(tooLarge(maxBytes, POINTER));
        return;
      }
      callback(null, chunk);
    },
  });
  await pipeline(response, count, createWriteStream(destination));
  return {
    size,
    filename:
      dispositionFilename(response.headers['content-disposition']) ?? lastSegment(url) ?? url.hostname,
  };
}

/** `attachment; filename="a.pdf"` or `filename*=UTF-8''a%20b.pdf`. */
function dispositionFilename(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return cleanName(decodeURIComponent(extended.trim()));
    } catch {
      // fall through to the plain form
    }
  }
  return cleanName(/filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]);
}

function lastSegment(url: URL): string | undefined {
  const segment = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .at(-1);
  if (!segment) return undefined;
  try {
    return cleanName(decodeURIComponent(segment));
  } catch {
    return cleanName(segment);
  }
}

/** A base name only, never a path. */
const cleanName = (name: string | undefined): string | undefined => {
  const base = name?.split(/[/\\]/).at(-1)?.trim();
  return base === '' ? undefined : base;
};

function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

const formatSeconds = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
