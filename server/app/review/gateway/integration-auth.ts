/**
 * Who is calling the gateway (`/v2/*`, `/v1/*` of the app server): an integration, by the key an admin
 * made for it (`npm run integrations -- add NAME`), sent where the hosted service's clients send its
 * API key: `Authorization: <key>` for v2, `Authorization: Token <key>` for v1 (either form is taken on
 * both, and `Bearer <key>`). Never a session cookie, and never the upstream's key, which stays on the
 * server: the proxy replaces `Authorization` with it once the integration is known.
 *
 * A missing, wrong or revoked key gets 401 `401-013`: a problem body on v2, the v1 envelope on v1 (as
 * the service's own v1 errors), so that each official client reports it as it would the hosted one's.
 *
 * An integration with a limit (`npm run integrations -- set-limit NAME N`, issue 22) is counted per
 * minute in the review store, one upsert per request, so that every copy shares its budget: past it,
 * 429 `429-004` with `Retry-After` until its minute ends, in the same two forms. One pipeline cannot
 * spend the whole upstream budget of every other. Refused requests are counted too: a pipeline that
 * ignores `Retry-After` stays refused until it waits.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { v1ErrorBody } from '@extraction-review/contract/v1/api-request';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import type { IntegrationRow } from '../db/schema';
import type { ReviewContext } from '../review-context';
import type { ApiVersion } from '../model/review-types';
import { describeWait, tooMany } from '../auth/too-many';

const INTEGRATION = 'gatewayIntegration';
const SCHEME = /^(?:token|bearer)\s+/i;
const MINUTE_MS = 60_000;

/** The integration this gateway request was authenticated as; undefined outside the gateway. */
export function integrationOf(c: Context): IntegrationRow | undefined {
  return c.get(INTEGRATION as never) as IntegrationRow | undefined;
}

/** The key as sent, without its scheme; undefined when there is none. */
export function integrationKeyOf(authorization: string | undefined): string | undefined {
  const key = authorization?.trim().replace(SCHEME, '').trim();
  return key === undefined || key === '' ? undefined : key;
}

export function integrationAuth(
  review: Pick<ReviewContext, 'integrations' | 'clock' | 'limits'>,
  version: ApiVersion,
): MiddlewareHandler {
  return async (c, next) => {
    const key = integrationKeyOf(c.req.header('authorization'));
    const integration =
      key === undefined ? undefined : await review.integrations.authenticate(key, review.clock.now());
    if (integration === undefined) {
      const problem = new ProblemError(
        '401-013',
        key === undefined
          ? `No integration key. Send the key made by \`npm run integrations -- add NAME\` in Authorization` +
              (version === 'v1' ? ' as `Token <key>`.' : ' (the key itself, as for the hosted service).')
          : 'This integration key is wrong or has been revoked. Ask an admin for a key (npm run integrations -- list).',
        { headers: { 'WWW-Authenticate': version === 'v1' ? 'Token' : 'Key' } },
      );
      return version === 'v1'
        ? c.json(v1ErrorBody(problem, c.req.url), 401, problem.headers)
        : problemResponse(problem);
    }
    const limit = integration.requests_per_minute ?? null;
    if (limit !== null) {
      const now = review.clock.now();
      const counted = await review.limits.count(`integration:${integration.id}`, now, MINUTE_MS);
      if (counted.count > limit) {
        const waitMs = counted.resetAt - now;
        const problem = tooMany(
          '429-004',
          `This integration may make ${limit} request${limit === 1 ? '' : 's'} a minute (npm run integrations -- set-limit). Try again in ${describeWait(waitMs)}.`,
          waitMs,
        );
        return version === 'v1'
          ? c.json(v1ErrorBody(problem, c.req.url), 429, problem.headers)
          : problemResponse(problem);
      }
    }
    c.set(INTEGRATION as never, integration as never);
    await next();
  };
}
