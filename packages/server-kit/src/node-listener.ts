/**
 * The Node request listener of our servers: @hono/node-server's, with requests it cannot even turn
 * into a `Request` (a malformed `Host` such as `evil@127.0.0.1`, a backslash in the path, an
 * unsupported absolute target) answered with a problem-details 400 instead of its bare empty one;
 * and the answer to requests Node's HTTP parser refuses before any route sees them (`clientError`:
 * headers too large, a body cut short by a half-close, a request that never completes), a problem
 * body too instead of Node's bare status line.
 */
import {
  maxHeaderSize,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Hono } from 'hono';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import { componentLogger } from './logger';

const logger = componentLogger('http');

export function requestListener(app: Hono): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return getRequestListener(app.fetch, {
    errorHandler: (error) => {
      if (error instanceof RequestError) {
        return problemResponse(
          new ProblemError('400-001', `The request cannot be read: ${error.message.toLowerCase()}.`),
        );
      }
      logger.error({ err: error }, 'a request failed before any route');
      return problemResponse(
        new ProblemError('500-001', 'An unexpected error occurred. It has been logged.'),
      );
    },
  });
}

/** What Node's parser refused, as the problem a client can read. */
function clientProblem(error: NodeJS.ErrnoException, maxHeaderSize: number): ProblemError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ProblemError(
        '431-001',
        `The request's header section is larger than ${Math.round(maxHeaderSize / 1024)} KiB: send fewer or shorter headers (cookies included).`,
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemError('408-001', 'The request did not arrive in full in time.');
    case 'HPE_INVALID_EOF_STATE':
      return new ProblemError(
        '400-001',
        'The connection was closed (half-closed) before the whole request arrived: send the whole body, as its Content-Length or chunked encoding says.',
      );
    default:
      return new ProblemError(
        '400-001',
        `The request is not valid HTTP/1.1 (${error.code ?? error.message}); nothing was done.`,
      );
  }
}

/**
 * Answers what Node's HTTP parser refuses with a problem body (Node would write a bare `400 Bad
 * Request` or `431`), then closes the connection. Only when nothing was written on the socket yet: a
 * response under way is left as it is, and a connection reset needs no answer.
 */
export function answerClientErrors(server: Server | HttpsServer): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const written = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
    if (error.code === 'ECONNRESET' || !socket.writable || written > 0) {
      socket.destroy();
      return;
    }
    answerAndClose(socket, clientProblem(error, maxHeaderSize));
  });
}

/**
 * A request that ran out of time (packages/server-kit/src/connection-limits.ts): the 408 problem when its answer
 * has not begun, then the connection closed; whatever the route still writes goes nowhere.
 */
export function cutSlowRequest(request: IncomingMessage, response: ServerResponse): void {
  const { socket } = request;
  if (response.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  answerAndClose(socket, new ProblemError('408-001', 'The request did not arrive in full in time.'));
}

/** The problem written straight on the socket, which is then closed. */
function answerAndClose(socket: Duplex, problem: ProblemError): void {
  const body = JSON.stringify(problem.toBody());
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n' +
      body,
  );
  // A client that never reads its answer does not keep the socket.
  setTimeout(() => socket.destroy(), 5_000).unref();
}
