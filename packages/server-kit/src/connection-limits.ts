/**
 * What one server copy grants a network peer before it knows who the peer is: a cap on open
 * connections, and short time limits on a request's headers and, until the request is authenticated,
 * on its body. A peer that opens thousands of connections and sends a byte now and then would
 * otherwise hold file descriptors for half an hour each (issue 18: 20,000 slow connections starved the
 * health checks).
 *
 * - Connections: `server.maxConnections`; past it, Node closes each new connection as it arrives.
 * - Headers: Node's `headersTimeout` (checked every `connectionsCheckingInterval`, set here to a
 *   fraction of it, or Node's 30 s default check would let a slow peer hold on for twice as long).
 * - Body: Node's `requestTimeout` is one value for the whole server, counted before any route knows
 *   who is calling. So it stays the outer bound (an authenticated 100 MB upload over a slow link), and
 *   each request with a body gets a deadline of its own here: `bodyTimeoutMs` from its headers, lifted
 *   once a route's authentication lets the request through (`trustRequestBody`). A trusted body must
 *   then keep moving: silent for `bodyIdleTimeoutMs`, it is cut.
 *
 * A request cut before its answer began gets a 408 `408-001` problem and its connection closed.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Context, MiddlewareHandler } from 'hono';

export interface ConnectionLimits {
  /** Open connections at most (MAX_CONNECTIONS); more are closed as they arrive. */
  maxConnections: number;
  /** A request's whole header section must arrive within this. */
  headersTimeoutMs: number;
  /** A request's body must arrive in full within this, until the request is authenticated. */
  bodyTimeoutMs: number;
  /** An authenticated request's body may take longer, but not stay silent for this long. */
  bodyIdleTimeoutMs: number;
  /** Any request, authenticated or not, must arrive in full within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_MAX_CONNECTIONS = 1000;

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: DEFAULT_MAX_CONNECTIONS,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  bodyIdleTimeoutMs: 60_000,
  // A 100 MB upload over a slow link, authenticated and moving, still arrives.
  requestTimeoutMs: 30 * 60_000,
  // Node's default; shorter than any client's own keep-alive, so the server closes first and
  // clients see a clean close rather than a reset on a reused socket.
  keepAliveTimeoutMs: 5_000,
};

/** The limits given, the defaults for the rest (an unset setting arrives as undefined). */
export function withDefaults(
  given: { [K in keyof ConnectionLimits]?: number | undefined } = {},
): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS };
  for (const key of Object.keys(limits) as (keyof ConnectionLimits)[]) {
    const value = given[key];
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}

/** The options to create a Node server with, for these limits. */
export function serverOptions(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** The deadline of each request whose body is still arriving: lifts it when authenticated. */
const deadlines = new WeakMap<IncomingMessage, () => void>();

/**
 * Applies the connection cap and the per-request body deadlines to a server created with
 * `serverOptions(limits)`. `cut` answers a request that ran out of time (the 408) and closes it.
 */
export function guardConnections(
  server: Server | HttpsServer,
  limits: ConnectionLimits,
  cut: (request: IncomingMessage, response: ServerResponse) => void,
): void {
  server.maxConnections = limits.maxConnections;
  // Before the app's own listener: its authentication may run in the same tick and lift the deadline.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    // No body (HTTP/1.1 has none without a length or chunked framing), or all of it already in.
    const framed =
      request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
    if (!framed || request.complete) return;
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      clearTimeout(timer);
      deadlines.delete(request);
    };
    const expire = (): void => {
      done();
      if (!request.complete) cut(request, response);
    };
    timer = setTimeout(expire, limits.bodyTimeoutMs);
    timer.unref();
    deadlines.set(request, () => {
      clearTimeout(timer);
      // From now on the body must keep moving: the socket's byte count is compared at each tick
      // (not a socket idle timeout, which the answer's own silence would trip too).
      let seen = request.socket.bytesRead;
      const tick = (): void => {
        const now = request.socket.bytesRead;
        if (now === seen && !request.complete) {
          expire();
          return;
        }
        seen = now;
        timer = setTimeout(tick, limits.bodyIdleTimeoutMs);
        timer.unref();
      };
      timer = setTimeout(tick, limits.bodyIdleTimeoutMs);
      timer.unref();
    });
    request.once('end', done);
    request.once('close', done);
  });
}

/** The Node request behind a Hono context under @hono/node-server; undefined in process. */
function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * The request is authenticated: its body may take as long as it keeps moving (up to the server's
 * request timeout). Called by the authentication middlewares once they let a request through.
 */
export function trustRequestBody(c: Context): void {
  const incoming = incomingOf(c);
  if (incoming === undefined) return;
  deadlines.get(incoming)?.();
  deadlines.delete(incoming);
}

/** `trustRequestBody` as a middleware, to put right after an authentication middleware. */
export const trustedBody: MiddlewareHandler = async (c, next) => {
  trustRequestBody(c);
  await next();
};
