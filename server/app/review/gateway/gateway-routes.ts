/** The gateway's v1 errors: in the v1 envelope, as the service's own (docs/errors.md). */
import type { Context } from 'hono';
import { v1ErrorBody } from '@extraction-review/contract/v1/api-request';
import { ProblemError } from '@extraction-review/contract/problem';
import { renderError } from '@extraction-review/server-kit/problem-response';

/** The gateway's own v1 errors (a 502 from the proxy, a 404 of ours) in the v1 envelope. */
export function renderV1GatewayError(error: Error, c: Context): Response {
  if (!(error instanceof ProblemError)) return renderError(error, c);
  return c.json(v1ErrorBody(error, c.req.url), error.status as 400, error.headers);
}
