/**
 * The gateway for pipelines (`/v2/*`, `/v1/*` of the app server, docs/gateway.md) as the app server
 * mounts it (server/app/create-app.ts), in this order: who calls (an integration key), what the gateway
 * answers itself (the validated results), what each integration may reach (only its own ids, only the
 * known routes), then the app server's proxy.
 */
import type { ErrorHandler, Hono, MiddlewareHandler } from 'hono';
import type { Upstream } from '../../upstream/upstream-client';
import type { ReviewContext } from '../review-context';
import type { ApiVersion } from '../model/review-types';
import { renderV1GatewayError } from './gateway-routes';
import { integrationAuth } from './integration-auth';
import { isolateIntegrations } from './isolation';
import { GatewayOwnership } from './ownership';
import { reviewedResultRoutes } from './reviewed-results';

export interface Gateway {
  authenticate: (version: ApiVersion) => MiddlewareHandler;
  routes: Record<ApiVersion, Hono>;
  /**
   * Before the proxy: refuses routes the gateway does not know and ids that are not the integration's;
   * records the ids the upstream's answers hand it. `upstream` and `timeoutMs` serve what the gateway
   * sends upstream itself (a RAG document, checked before it goes).
   */
  isolate: (version: ApiVersion, upstream: Upstream | undefined, timeoutMs: number) => MiddlewareHandler;
  renderV1Error: ErrorHandler;
}

export function createGateway(review: ReviewContext): Gateway {
  const ownership = new GatewayOwnership(review.database, review.clock);
  return {
    authenticate: (version) => integrationAuth(review, version),
    routes: { v2: reviewedResultRoutes(review, 'v2'), v1: reviewedResultRoutes(review, 'v1') },
    isolate: (version, upstream, timeoutMs) =>
      isolateIntegrations(version, { review, ownership, upstream, timeoutMs }),
    renderV1Error: renderV1GatewayError,
  };
}
