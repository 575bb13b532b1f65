/**
 * The Node request listener of our servers: @hono/node-server's, with requests it cannot even turn
 * into a `Request` (a malformed `Host` such as `evil@127.0.0.1`, a backslash in the path, an
 * unsupported absolute target) answered with a problem-details 400 instead of its bare empty one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Hono } from 'hono';
import { ProblemError, problemResponse } from './problem';

export function requestListener(app: Hono): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return getRequestListener(app.fetch, {
    errorHandler: (error) => {
      if (error instanceof RequestError) {
        return problemResponse(
          new ProblemError('400-001', `The request cannot be read: ${error.message.toLowerCase()}.`),
        );
      }
      console.error('[request]', error);
      return problemResponse(
        new ProblemError('500-001', 'An unexpected error occurred. It has been logged.'),
      );
    },
  });
}
