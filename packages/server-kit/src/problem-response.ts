/** The Hono side of problem details (problem.ts): the `onError` renderer and the not-found handler. */
import type { Context } from 'hono';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import { componentLogger } from './logger';

const log = componentLogger('http');

/**
 * Hono `onError` handler: a `ProblemError` is rendered as is; anything else is logged and becomes a
 * 500 without internals in the body.
 */
export function renderError(err: Error, c: Context): Response {
  if (err instanceof ProblemError) return problemResponse(err);
  // With the request's id (request-log.ts), as every line logged while it is served.
  log.error({ err, method: c.req.method, route: c.req.routePath }, 'a request failed');
  return problemResponse(new ProblemError('500-001', 'An unexpected error occurred. It has been logged.'));
}

export function notFound(c: Context): Response {
  return problemResponse(new ProblemError('404-003', `No route for ${c.req.method} ${c.req.path}.`));
}
