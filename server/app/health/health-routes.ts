/**
 * `GET /api/health/live` and `GET /api/health/ready`, the way load balancers and orchestrators probe
 * (n8n's and Directus's split): `live` says the process answers (restart it when it does not),
 * `ready` whether it should be sent requests now (readiness.ts: the store within a time limit, the
 * schema, LISTEN, the file storage, and `503` from the moment it drains). Neither needs a session,
 * and neither waits on anything but the checks' time limits. `/api/health` (create-app.ts) is the
 * older summary and stays as it is.
 */
import { Hono } from 'hono';
import { ProblemError, problemResponse } from '@extraction-review/contract/problem';
import type { CheckResult, Readiness } from './readiness';

export interface LiveBody {
  status: 'live';
}

export interface ReadyBody {
  status: 'ready';
  checks: Record<string, CheckResult>;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

export function healthRoutes(readiness: Readiness): Hono {
  const routes = new Hono();
  routes.get('/health/live', (c) => c.json({ status: 'live' } satisfies LiveBody, 200, NO_STORE));
  routes.get('/health/ready', async (c) => {
    const { ready, checks } = await readiness.report();
    if (ready) return c.json({ status: 'ready', checks } satisfies ReadyBody, 200, NO_STORE);
    const failing = Object.entries(checks)
      .filter(([, result]) => result.required && result.state !== 'ok')
      .map(([name, result]) => `${name} (${result.state}${result.detail ? `: ${result.detail}` : ''})`);
    return problemResponse(
      new ProblemError('503-002', `Not ready: ${failing.join('; ')}.`, {
        headers: NO_STORE,
        extensions: { checks },
      }),
    );
  });
  return routes;
}
