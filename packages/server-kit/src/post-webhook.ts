/**
 * One delivery attempt: a POST (or the PATCH of v1 feedback) over node:http/node:https, never fetch,
 * so that
 * - redirects are never followed (a 3xx is an answer like any other, and not a 2xx);
 * - the body is one Buffer written once (no stream to tee, no copy per attempt);
 * - the time-out covers the whole exchange up to the response's status line, connection included.
 * A fresh connection per attempt (`agent: false`): a retry never reuses a socket the receiver may have
 * left in a bad state, and nothing is pooled across jobs.
 *
 * The reference service's webhook dispatcher's (reference/webhooks/dispatcher.ts). The app server sends
 * through its upstream client instead (app/upstream/deliver-once.ts), with the same rules.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { retryAfterMs, type AttemptOutcome } from './retry-policy';

export type { AttemptOutcome } from './retry-policy';

export interface PostOptions {
  /** Default POST. */
  method?: 'POST' | 'PATCH';
  headers: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /**
   * How the URL's host name becomes an address. The app server's integration webhooks pin it to the
   * address their check allowed (webhook-address.ts); default: the system resolver.
   */
  lookup?: LookupFunction | undefined;
}

/**
 * An endpoint URL the dispatcher may call, or the reason it may not. Only http(s). Which addresses it
 * may reach is the caller's policy: the reference service's endpoints come from its operator's models
 * file, so private and loopback addresses are allowed there (a receiver on the same machine, such as
 * the app server's `/hooks/v2`, is the common case); an integration's webhook URL is checked against
 * public addresses and ALLOW_PRIVATE_WEBHOOKS (webhook-address.ts) and its connection pinned (`lookup`).
 */
export function endpointUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The webhook URL is not a valid absolute URL.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `The webhook URL must use http or https, not ${url.protocol.replace(/:$/, '')}.`;
  }
  return url;
}

export function postWebhook(url: URL, body: Buffer, options: PostOptions): Promise<AttemptOutcome> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = transport.request(url, {
      method: options.method ?? 'POST',
      agent: false,
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      headers: { ...options.headers, 'Content-Length': String(body.length) },
    });
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' });
      request.destroy();
    }, options.timeoutMs);
    const onAbort = (): void => {
      settle({ kind: 'aborted' });
      request.destroy();
    };
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => options.signal.removeEventListener('abort', onAbort));

    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      settle(
        status >= 200 && status < 300
          ? { kind: 'delivered', status }
          : {
              kind: 'status',
              status,
              statusText: response.statusMessage ?? '',
              location: headerValue(response.headers.location),
              retryAfterMs: retryAfterMs(headerValue(response.headers['retry-after'])),
            },
      );
      // The answer's body is not needed: drain it, but not for longer than an attempt may take.
      const drain = setTimeout(() => request.destroy(), options.timeoutMs);
      response.on('error', () => undefined);
      response.once('close', () => clearTimeout(drain));
      response.resume();
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      settle({ kind: 'network', message: error.message }),
    );
    request.end(body);
  });
}

const headerValue = (value: string | string[] | undefined): string | null =>
  (Array.isArray(value) ? value[0] : value) ?? null;
