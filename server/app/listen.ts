/**
 * Start the app server on a port, resolving once it listens (rejecting on EADDRINUSE and the like,
 * instead of crashing later on an unhandled 'error' event). Kept apart from create-app.ts so that
 * importing the factory never opens a socket.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/**
 * Node's default is 300 s to receive a whole request, which a 100 MB upload over a slow link can
 * exceed. Uploads stream straight through to the upstream, so a longer limit costs no memory.
 */
export const REQUEST_TIMEOUT_MS = 30 * 60 * 1000;

export interface RunningServer {
  server: Server;
  /** `http://host:port` with the actual port (useful with port 0). */
  url: string;
  close(): Promise<void>;
}

export function listen(app: Hono, options: { host: string; port: number }): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({
      fetch: app.fetch,
      hostname: options.host,
      port: options.port,
      serverOptions: { requestTimeout: REQUEST_TIMEOUT_MS },
    }) as Server;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://${hostForUrl(address.address)}:${address.port}`,
        close: () => close(server),
      });
    });
  });
}

function hostForUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/** Stop accepting connections, let requests in flight finish for a moment, then cut the rest. */
function close(server: Server, graceMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
