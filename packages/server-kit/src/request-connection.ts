/**
 * The TCP connection behind a request served by @hono/node-server (its `c.env.incoming.socket`), or
 * undefined for an in-process call (`app.request()`), which has none.
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Context } from 'hono';
import type { RequestFacts } from './host-policy';

interface NodeBindings {
  incoming?: { socket?: Socket | TLSSocket };
}

export function requestConnection(c: Context): RequestFacts['connection'] {
  const env = c.env as NodeBindings | undefined;
  const socket = env?.incoming?.socket;
  if (socket?.localAddress === undefined) return undefined;
  return {
    localAddress: socket.localAddress,
    remoteAddress: socket.remoteAddress,
    encrypted: (socket as Partial<TLSSocket>).encrypted === true,
  };
}

export function requestFacts(c: Context): RequestFacts {
  return { headers: c.req.raw.headers, connection: requestConnection(c) };
}
