/**
 * Start the app server on a port, resolving once it listens (rejecting on EADDRINUSE and the like,
 * instead of crashing later on an unhandled 'error' event). Kept apart from create-app.ts so that
 * importing the factory never opens a socket.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Hono } from 'hono';
import {
  guardConnections,
  serverOptions,
  withDefaults,
  type ConnectionLimits,
} from '@extraction-review/server-kit/connection-limits';
import {
  answerClientErrors,
  cutSlowRequest,
  requestListener,
} from '@extraction-review/server-kit/node-listener';

export interface RunningServer {
  server: Server;
  /** `http://host:port` with the actual port (useful with port 0). */
  url: string;
  /**
   * The drain before a shutdown (SIGTERM, SHUTDOWN_DRAIN_MS): the server still accepts and answers,
   * but every answer from now on closes its connection (`Connection: close`), so that clients holding
   * a keep-alive connection to this copy open their next one through the load balancer, to another.
   */
  drain(): void;
  /** Requests under way now (their answer not finished). */
  inFlight(): number;
  /**
   * Stop accepting connections, let requests in flight finish for up to the grace period (uploads
   * included), closing each connection as soon as it has no request under way, then cut the rest.
   * Resolves once every connection is closed. Calling it again returns the same promise.
   */
  close(options?: CloseOptions): Promise<CloseReport>;
}

export interface CloseOptions {
  /** How long requests in flight may take to finish once the server stops accepting. Default 5 s. */
  graceMs?: number;
}

export interface CloseReport {
  /** Requests under way when the server stopped accepting. */
  inFlight: number;
  /** Requests still under way at the end of the grace period, whose connections were cut. */
  cut: number;
}

const DEFAULT_GRACE_MS = 5_000;

export interface ListenOptions {
  host: string;
  port: number;
  /**
   * Connections and time limits (packages/server-kit/src/connection-limits.ts): 30 s for headers and for an
   * unauthenticated body, 30 min for an authenticated upload that keeps moving, MAX_CONNECTIONS.
   */
  limits?: { [K in keyof ConnectionLimits]?: number | undefined };
}

export function listen(app: Hono, options: ListenOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const limits = withDefaults(options.limits);
    const server = createServer(serverOptions(limits), requestListener(app));
    answerClientErrors(server);
    guardConnections(server, limits, cutSlowRequest);
    const connections = trackConnections(server);
    let draining = false;
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      // Merged into the route's own headers when it writes them: Node then closes the connection.
      if (draining && !response.headersSent) response.setHeader('Connection', 'close');
    });
    let closing: Promise<CloseReport> | undefined;
    server.once('error', reject);
    server.listen(options.port, options.host);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://${hostForUrl(address.address)}:${address.port}`,
        drain: () => {
          draining = true;
        },
        inFlight: () => busyCount(connections),
        close: (closeOptions) => {
          draining = true;
          closing ??= close(server, connections, closeOptions?.graceMs ?? DEFAULT_GRACE_MS);
          return closing;
        },
      });
    });
  });
}

function hostForUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/** Each open connection, and whether a request is under way on it. */
type Connections = Map<Socket, { busy: boolean }>;

function trackConnections(server: Server): Connections {
  const connections: Connections = new Map();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { busy: false });
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.busy = true;
    response.once('close', () => (state.busy = false));
  });
  return connections;
}

function busyCount(connections: Connections): number {
  let busy = 0;
  for (const state of connections.values()) if (state.busy) busy += 1;
  return busy;
}

/**
 * Stop accepting connections, let requests in flight finish for the grace period, then cut the rest.
 * Every 50 ms meanwhile, connections with no request under way are closed: keep-alive ones whose
 * request finished during the grace period (an event stream just ended, an upload answered), and ones
 * that never sent a request (browsers open spare connections), which Node's closeIdleConnections
 * leaves open. A request under way is never cut before the grace period ends, however long its body.
 */
function close(server: Server, connections: Connections, graceMs: number): Promise<CloseReport> {
  return new Promise((resolve) => {
    const inFlight = busyCount(connections);
    let cut = 0;
    const closeIdle = (): void => {
      for (const [socket, { busy }] of connections) if (!busy) socket.destroy();
    };
    const force = setTimeout(() => {
      cut = busyCount(connections);
      server.closeAllConnections();
    }, graceMs);
    force.unref();
    const sweep = setInterval(closeIdle, 50);
    sweep.unref();
    server.close(() => {
      clearTimeout(force);
      clearInterval(sweep);
      resolve({ inFlight, cut });
    });
    closeIdle();
  });
}
