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
} from '../shared/connection-limits';
import { answerClientErrors, cutSlowRequest, requestListener } from '../shared/node-listener';

export interface RunningServer {
  server: Server;
  /** `http://host:port` with the actual port (useful with port 0). */
  url: string;
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  /**
   * Connections and time limits (server/shared/connection-limits.ts): 30 s for headers and for an
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
    server.once('error', reject);
    server.listen(options.port, options.host);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://${hostForUrl(address.address)}:${address.port}`,
        close: () => close(server, connections),
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

/**
 * Stop accepting connections, let requests in flight finish for a moment, then cut the rest. Every
 * 50 ms meanwhile, connections with no request under way are closed: keep-alive ones whose request
 * finished during the grace period (an event stream just ended, a download), and ones that never
 * sent a request (browsers open spare connections), which Node's closeIdleConnections leaves open.
 */
function close(server: Server, connections: Connections, graceMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const closeIdle = (): void => {
      for (const [socket, { busy }] of connections) if (!busy) socket.destroy();
    };
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    const sweep = setInterval(closeIdle, 50);
    sweep.unref();
    server.close(() => {
      clearTimeout(force);
      clearInterval(sweep);
      resolve();
    });
    closeIdle();
  });
}
