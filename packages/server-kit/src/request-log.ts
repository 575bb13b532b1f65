/**
 * Every request's id and access line, first middleware of a server:
 *
 * - the request id: `X-Request-Id` as a trusted proxy sent it (TRUST_PROXY; ≤ 128 characters of
 *   `[A-Za-z0-9._:-]`), else a new UUID; answered in `X-Request-Id`, in every problem body as
 *   `request_id` (added here, the one place every problem passes, thrown or returned), and on every
 *   line logged while the request is served (logger.ts `withLogFields`);
 * - one access line when the answer is ready: method, route pattern (never the path's ids nor its
 *   query), status, duration, bytes when known, who (operator or integration id), never a body. At
 *   `info`, at `debug` for what would drown the rest (health checks, the app's static files).
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { withLogFields, type Logger } from './logger';
import { requestConnection } from './request-connection';
import type { PeerCheck } from './trusted-proxy';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const REQUEST_ID = 'requestId';
const RELAYED = 'relayedAnswer';
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Problem bodies larger than this are passed as they are (no problem is; an upstream's might be). */
const MAX_PROBLEM_BYTES = 64 * 1024;

export interface RequestLogOptions {
  logger: Logger;
  /** Peers whose `X-Request-Id` is kept (the reverse proxy that made it). Default nobody. */
  trustProxy?: PeerCheck;
  /** Who made the request, once it is answered: `{ operator_id }`, `{ integration_id }`, or nothing. */
  actor?: (c: Context) => Record<string, string> | undefined;
  /** Requests logged at `debug` rather than `info`. Default: none. */
  quiet?: (c: Context) => boolean;
  /** Told of every answer as its access line is written (the metrics' request histogram). */
  observe?: (answer: { method: string; route: string; status: number; durationMs: number }) => void;
}

/** The request's id, as this middleware set it (undefined outside it). */
export function requestId(c: Context): string | undefined {
  return c.get(REQUEST_ID as never) as string | undefined;
}

/**
 * Says that this request's answer is an upstream's, relayed (the proxy): its body stays the upstream's
 * own, problem or not (docs/errors.md); only the `X-Request-Id` header is added.
 */
export function relayedAsIs(c: Context): void {
  c.set(RELAYED as never, true as never);
}

/** The id a peer sent, when the peer is trusted and the id is well formed; else a new one. */
export function chooseRequestId(sent: string | null, trusted: boolean): string {
  return trusted && sent !== null && VALID_ID.test(sent) ? sent : randomUUID();
}

export function requestLog(options: RequestLogOptions): MiddlewareHandler {
  const trusted = options.trustProxy ?? (() => false);
  return async (c, next) => {
    const started = performance.now();
    const id = chooseRequestId(
      c.req.header(REQUEST_ID_HEADER) ?? null,
      trusted(requestConnection(c)?.remoteAddress),
    );
    c.set(REQUEST_ID as never, id as never);
    // Every line logged while the request is served carries its id, whichever module writes it.
    await withLogFields({ request_id: id }, next);
    await withRequestId(c, id);
    const length = c.res.headers.get('content-length');
    const durationMs = performance.now() - started;
    const line = {
      request_id: id,
      method: c.req.method,
      route: c.req.routePath,
      status: c.res.status,
      duration_ms: Math.round(durationMs * 10) / 10,
      ...(length !== null ? { bytes: Number(length) } : {}),
      ...options.actor?.(c),
    };
    // The message says it in brief for readable lines; the fields are what a search reads.
    const message = `${line.method} ${line.route} ${line.status}`;
    if (options.quiet?.(c) === true) options.logger.debug(line, message);
    else options.logger.info(line, message);
    options.observe?.({ method: line.method, route: line.route, status: line.status, durationMs });
  };
}

/** The answer with `X-Request-Id`, and `request_id` in its body when it is a problem. */
async function withRequestId(c: Context, id: string): Promise<void> {
  const response = c.res;
  let headers = response.headers;
  let body: BodyInit | null | undefined;
  if (isProblem(response) && c.get(RELAYED as never) !== true) {
    const text = await response.clone().text();
    const problem = parseObject(text);
    if (problem !== undefined) {
      body = JSON.stringify({ ...problem, request_id: id });
      headers = new Headers(headers);
      headers.set('content-length', String(Buffer.byteLength(body)));
    }
  }
  if (body === undefined) {
    try {
      headers.set(REQUEST_ID_HEADER, id);
      return;
    } catch {
      // Immutable headers (a Response straight from fetch): a copy below.
      headers = new Headers(headers);
    }
  }
  headers.set(REQUEST_ID_HEADER, id);
  const copy = new Response(body === undefined ? response.body : body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
  // Hono merges the old headers into a new `c.res` unless it is cleared first.
  c.res = undefined;
  c.res = copy;
}

function isProblem(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  const length = Number(response.headers.get('content-length') ?? '0');
  return type.startsWith('application/problem+json') && response.body !== null && length <= MAX_PROBLEM_BYTES;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (text.length > MAX_PROBLEM_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
