/**
 * One request over node:http / node:https, body streamed with back-pressure: the proxy's pass-through
 * and, under the upstream client (upstream-client.ts, exchange.ts), every other call the app server
 * makes to an upstream or a pipeline's webhook.
 *
 * Why not fetch: Node's fetch (undici 6, Node 20) clones a request whose redirect mode is not
 * 'error', and cloning tees a streamed body; the branch nobody reads then keeps every chunk. A
 * 100 MiB upload through `fetch(url, { body: stream, duplex: 'half', redirect: 'manual' })` held
 * about 100 MiB (Hono's `proxy` helper, which keeps the default 'follow', shows the same). With
 * `redirect: 'error'` the memory stays flat, but then a 302 cannot be passed on. node:http has
 * neither problem, never follows redirects, and hands over the body exactly as sent (encoded or not).
 */
import http, { type Agent, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface UpstreamRequest {
  method: string;
  headers: Headers;
  /** A Node stream (the incoming request itself), a web stream, or bytes written once; null for none. */
  body: Readable | ReadableStream<Uint8Array> | Buffer | null;
  /** Aborting it destroys the request and, once it has arrived, the response. */
  signal: AbortSignal;
  /** Called once the whole request (headers and body) has been handed to the OS. */
  onRequestSent?: () => void;
  /** `false` for a fresh connection (a delivery attempt); default: the keep-alive global agent. */
  agent?: Agent | false | undefined;
  /**
   * How the host name becomes an address: a pipeline's webhook is pinned to the address its check
   * allowed (shared/webhook-address.ts). Default: the system resolver.
   */
  lookup?: LookupFunction | undefined;
}

export interface UpstreamResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** The body as received (still content-encoded); null for HEAD, 204 and 304. */
  body: IncomingMessage | null;
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

export function sendUpstream(url: string, init: UpstreamRequest): Promise<UpstreamResponse> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of init.headers) headers[name] = value;
    // The default agents keep connections alive (Node ≥ 19) and unref idle sockets.
    const req = transport.request(target, {
      method: init.method,
      headers,
      signal: init.signal,
      ...(init.agent === undefined ? {} : { agent: init.agent }),
      ...(init.lookup === undefined ? {} : { lookup: init.lookup }),
    });
    req.once('finish', () => init.onRequestSent?.());
    // After 'response' a request error (an upload cut short) is a no-op here: the answer stands.
    req.on('error', reject);
    req.once('response', (res) => {
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        responseHeaders.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
      }
      const hasBody = init.method !== 'HEAD' && !NULL_BODY_STATUSES.has(res.statusCode ?? 0);
      if (!hasBody) res.resume();
      resolve({
        status: res.statusCode ?? 502,
        statusText: res.statusMessage ?? '',
        headers: responseHeaders,
        body: hasBody ? res : null,
      });
    });

    if (init.body === null) {
      req.end();
    } else if (Buffer.isBuffer(init.body)) {
      req.end(init.body);
    } else {
      // Errors here (the browser went away, or the upstream answered early and closed) surface
      // through 'error' on req or the abort signal; nothing more to do with them.
      const source =
        init.body instanceof Readable
          ? init.body
          : Readable.fromWeb(init.body as Parameters<typeof Readable.fromWeb>[0]);
      pipeline(source, req).catch(() => {});
    }
  });
}
