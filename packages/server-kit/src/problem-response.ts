/** The Hono side of problem details (problem.ts): the `onError` renderer and the not-found handler. */
import type { Context } from 'hono';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';

/**
 * Hono `onError` handler: a `ProblemError` is rendered as is; anything else is logged and becomes a
 * 500 without internals in the body.
 */
export function renderError(err: Error, c: Context): Response {
  if (err instanceof ProblemError) return problemResponse(err);
  console.error(`[${c.req.method} ${c.req.path}]`, err);
  return problemResponse(new ProblemError('500-001', 'An unexpected error occurred. It has been logged.'));
}

export function notFound(c: Context): Response {
  return problemResponse(new ProblemError('404-003', `No route for ${c.req.method} ${c.req.path}.`));
}
