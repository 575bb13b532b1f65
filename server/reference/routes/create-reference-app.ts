/**
 * The reference service's HTTP surface as a Hono app, with no socket: `startReferenceService` serves
 * it, and tests can call `app.request()` directly.
 */
import { Hono } from 'hono';
import { notFound, renderError } from '../../shared/problem';
import type { JobService } from '../jobs/job-service';
import type { ModelCatalog } from '../models/model-catalog';
import type { FileStore } from '../store/file-store';
import { requireApiKey } from './auth';
import { enqueueHandler } from './enqueue';
import { jobHandler } from './jobs';
import { resultHandler } from './results';
import { searchModelsHandler } from './search-models';
import type { ServiceUrls } from './service-urls';

export interface ReferenceAppDeps {
  apiKey: string;
  jobs: JobService;
  models: ModelCatalog;
  files: FileStore;
  urls: ServiceUrls;
  maxUploadBytes: number;
}

export function createReferenceApp(deps: ReferenceAppDeps): Hono {
  const v2 = new Hono();
  v2.use('*', requireApiKey(deps.apiKey));
  v2.post('/products/extraction/enqueue', enqueueHandler(deps));
  v2.get('/jobs/:job_id', jobHandler(deps));
  v2.get('/products/extraction/results/:inference_id', resultHandler(deps));
  v2.get('/search/models', searchModelsHandler(deps));

  const app = new Hono();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.route('/v2', v2);
  app.onError(renderError);
  app.notFound(notFound);
  return app;
}
