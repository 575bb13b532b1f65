/**
 * The reference service's HTTP surface as a Hono app, with no socket: `startReferenceService` serves
 * it, and tests can call `app.request()` directly.
 *
 * Every request: the Host check first, when the service has one (421: see packages/server-kit/src/host-policy.ts).
 * Every /v2 request: API key (401) → per-key budget (429) → route. /v1 does the same with
 * `Authorization: Token <key>` and answers in the v1 envelope (v1/v1-routes.ts).
 */
import { Hono, type Context } from 'hono';
import { DEFAULT_MAX_BODY_BYTES, limitBodies } from '@extraction-review/server-kit/body-limit';
import { trustedBody } from '@extraction-review/server-kit/connection-limits';
import { RAG_ROUTES_BASE } from '../rag/rag-routes';
import { hostGuard } from '@extraction-review/server-kit/host-guard';
import type { HostPolicy } from '@extraction-review/server-kit/host-policy';
import { notFound, renderError } from '@extraction-review/server-kit/problem-response';
import type { JobService } from '../jobs/job-service';
import type { ModelCatalog } from '../models/model-catalog';
import type { FileStore } from '../store/file-store';
import { requireApiKey } from './auth';
import { enqueueHandler, type UrlInputOptions } from './enqueue';
import { jobHandler } from './jobs';
import { MODEL_SCHEMA_ROUTE, modelSchemaHandler } from './model-schema';
import { rateLimit, type RateLimits } from './rate-limit';
import { resultHandler } from './results';
import { searchModelsHandler } from './search-models';
import type { V1JobService } from '../v1/v1-job-service';
import { createV1App } from '../v1/v1-routes';
import type { UrlsForRequest } from './service-urls';

export interface ReferenceAppDeps {
  apiKey: string;
  jobs: JobService;
  models: ModelCatalog;
  files: FileStore;
  /** The absolute URLs to write in the answer to a request (service-urls.ts). */
  urls: UrlsForRequest;
  /** Largest document, whichever way it comes (file, file_base64, url). */
  maxFileBytes: number;
  urlInput: UrlInputOptions;
  rateLimits: RateLimits;
  /**
   * Adds routes under /v2, behind the key check and the budgets (extensions such as the RAG store's
   * endpoints).
   */
  extendV2?: (v2: Hono) => void;
  /** The earlier API's jobs: with them, /v1 is served beside /v2 (v1/v1-routes.ts). */
  v1Jobs?: V1JobService;
  /** The hosts it answers to; none: every host (it listens on a public interface with no list set). */
  hosts?: HostPolicy;
}

/**
 * Each route's body limit (packages/server-kit/src/body-limit.ts): none from here for the routes that count
 * their own body as it streams (the enqueue's file and base64, the RAG store's 5 MB, /v1, which sets
 * its own), 1 MB for any other.
 */
function bodyLimitFor(c: Context): number | undefined {
  const path = c.req.path;
  if (path === '/v2/products/extraction/enqueue' || /^\/v1(\/|$)/.test(path)) return undefined;
  if (path.startsWith(`/v2${RAG_ROUTES_BASE}/`) && path.endsWith('/documents')) return undefined;
  return DEFAULT_MAX_BODY_BYTES;
}

export function createReferenceApp(deps: ReferenceAppDeps): Hono {
  const v2 = new Hono();
  v2.use('*', requireApiKey(deps.apiKey));
  // The key is right: an upload may take longer than the 30 s an unknown peer gets.
  v2.use('*', trustedBody);
  for (const budget of rateLimit(deps.rateLimits)) v2.use('*', budget);
  v2.post('/products/extraction/enqueue', enqueueHandler(deps));
  v2.get('/jobs/:job_id', jobHandler(deps));
  v2.get('/products/extraction/results/:inference_id', resultHandler(deps));
  // The form some recorded hosted bodies give as `result_url` (API-FACTS): the same result.
  v2.get('/inferences/:inference_id', resultHandler(deps));
  v2.get('/search/models', searchModelsHandler(deps));
  // Extension of ours: a model's data schema (model-schema.ts).
  v2.get(MODEL_SCHEMA_ROUTE, modelSchemaHandler(deps));
  deps.extendV2?.(v2);

  const app = new Hono();
  if (deps.hosts) app.use('*', hostGuard(deps.hosts, 'REFERENCE_'));
  app.use('*', limitBodies(bodyLimitFor));
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.route('/v2', v2);
  if (deps.v1Jobs) app.route('/v1', createV1App({ ...deps, v1Jobs: deps.v1Jobs }));
  app.onError(renderError);
  app.notFound(notFound);
  return app;
}
