/**
 * The earlier API under /v1 (spec §4.2, API-FACTS v1): predict, predict_async, queue polling and
 * documents, behind `Authorization: Token <key>` (the same key as /v2) and the same per-key budgets.
 * Every answer, errors included, carries `api_request` (v1-envelope.ts).
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { DEFAULT_MAX_BODY_BYTES, limitBodies, readBodyText } from '@extraction-review/server-kit/body-limit';
import { trustedBody } from '@extraction-review/server-kit/connection-limits';
import { checkJsonDepth } from '@extraction-review/server-kit/json-depth';
import { ProblemError } from '@extraction-review/contract/problem';
import type { V1Product } from '../models/model-catalog';
import type { ModelCatalog } from '../models/model-catalog';
import { rateLimit, type RateLimits } from '../routes/rate-limit';
import type { UrlsForRequest } from '../routes/service-urls';
import { storeV1Document, type V1InputDeps } from './v1-document-input';
import { combineFeedback, feedbackJson, parseFeedback } from './v1-feedback';
import { apiRequest, v1ErrorBody } from '@extraction-review/contract/v1/api-request';
import { calledUrl, jobJson } from './v1-envelope';
import type { V1JobService } from './v1-job-service';
import type { V1JobRecord } from './v1-store';
import { isUuid } from '@extraction-review/contract/common-schemas';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('reference');

export interface V1RoutesDeps extends V1InputDeps {
  apiKey: string;
  models: ModelCatalog;
  v1Jobs: V1JobService;
  urls: UrlsForRequest;
  rateLimits: RateLimits;
}

const PRODUCT = '/products/:account/:name/:version';

export function createV1App(deps: V1RoutesDeps): Hono {
  const v1 = new Hono();
  const base = (c: Context): string => deps.urls(c).base();
  const url = (c: Context): string => calledUrl(c, base(c));
  v1.onError((error, c) => {
    const problem =
      error instanceof ProblemError
        ? error
        : (logger.error({ err: error, method: c.req.method, route: c.req.routePath }, 'a request failed'),
          new ProblemError('500-001', 'An unexpected error occurred. It has been logged.'));
    return c.json(v1ErrorBody(problem, url(c)), problem.status as 400, problem.headers);
  });
  // Every v1 body bounded (packages/server-kit/src/body-limit.ts): the documents' own counters for predict, 1 MB
  // elsewhere; thrown here, a 413 comes in the v1 envelope.
  v1.use(
    '*',
    limitBodies((c) => (/\/predict(_async)?$/.test(c.req.path) ? undefined : DEFAULT_MAX_BODY_BYTES)),
  );
  v1.use('*', requireToken(deps.apiKey));
  // The key is right: an upload may take longer than the 30 s an unknown peer gets.
  v1.use('*', trustedBody);
  for (const budget of rateLimit(deps.rateLimits)) v1.use('*', budget);

  const documentUrl = (c: Context, job: V1JobRecord): string =>
    `${base(c)}/v1/products/${job.account}/${job.name}/v${job.version}/documents/${job.documentId}`;

  /** Stores the request's document and queues its job. */
  const enqueue = async (c: Context, product: V1Product, announce: boolean): Promise<V1JobRecord> => {
    const id = randomUUID();
    try {
      const stored = await storeV1Document(c.req.raw, id, deps);
      await deps.files.commit(id);
      return deps.v1Jobs.enqueue({ id, product, announce, ...stored });
    } catch (error) {
      await deps.files.discard(id);
      throw error;
    }
  };

  v1.post(`${PRODUCT}/predict_async`, async (c) => {
    const product = productOf(c, deps.models);
    if (!product.async) {
      throw new ProblemError('403-001', `${product.account}/${product.name} does not support async mode.`, {
        title: 'This product does not support asynchronous mode',
      });
    }
    // Only an asynchronous job's end is announced to the product's webhooks (v1-webhooks.ts).
    const job = await enqueue(c, product, true);
    return c.json(
      {
        api_request: apiRequest(url(c), 202, ['job']),
        job: { ...jobJson(job), polling_url: `${base(c)}/v1/documents/queue/${job.id}` },
      },
      202,
    );
  });

  v1.post(`${PRODUCT}/predict`, async (c) => {
    const product = productOf(c, deps.models);
    if (!product.sync) {
      throw new ProblemError('403-001', `${product.account}/${product.name} does not support sync mode.`, {
        title: 'This product does not support synchronous mode',
      });
    }
    const job = await deps.v1Jobs.waitFor((await enqueue(c, product, false)).id);
    if (job.status === 'failed' && job.error) {
      const status = Number(job.error.code.slice(0, 3));
      return c.json(
        {
          api_request: {
            ...apiRequest(url(c), status, []),
            status: 'failure' as const,
            error: job.error,
          },
        },
        (status >= 400 && status < 600 ? status : 500) as 500,
      );
    }
    return c.json({ api_request: apiRequest(url(c), 201, ['document']), document: job.document }, 201);
  });

  const queue = (scoped: boolean) => (c: Context) => {
    const job = jobOf(c, deps.v1Jobs);
    if (scoped) sameProduct(job, productOf(c, deps.models));
    c.header('Cache-Control', 'no-store');
    const body = { api_request: apiRequest(url(c), 200, ['job']), job: jobJson(job) };
    if (job.status === 'completed') {
      // As v2 does, the job goes along with the redirect; clients take the document id from Location.
      return c.json({ ...body, api_request: { ...body.api_request, status_code: 302 } }, 302, {
        Location: documentUrl(c, job),
      });
    }
    return c.json(body, 200);
  };
  // Extension of ours (the hosted v1 API has no such list): the products this service serves, so that
  // a client can offer them and say which modes each takes.
  v1.get('/extensions/products', (c) =>
    c.json({
      api_request: apiRequest(url(c), 200, ['products']),
      products: deps.models.products.map((p) => ({
        account: p.account,
        name: p.name,
        version: p.version,
        sync: p.sync,
        async: p.async,
        feedback: p.feedback,
      })),
    }),
  );
  v1.get('/documents/queue/:job_id', queue(false));
  v1.get(`${PRODUCT}/documents/queue/:job_id`, queue(true));

  v1.get(`${PRODUCT}/documents/:document_id`, (c) => {
    const product = productOf(c, deps.models);
    const documentId = c.req.param('document_id') ?? '';
    const job = isUuid(documentId) ? deps.v1Jobs.findByDocument(documentId) : undefined;
    if (!job || job.status !== 'completed') {
      throw new ProblemError('404-009', `No document ${documentId} is available.`);
    }
    sameProduct(job, product);
    c.header('Cache-Control', 'no-store');
    return c.json({
      api_request: apiRequest(url(c), 200, ['document', 'job']),
      document: job.document,
      job: jobJson(job),
    });
  });

  // Feedback (v1-feedback.ts): PUT replaces, PATCH merges; GET is an extension of ours.
  const FEEDBACK = '/documents/:document_id/feedback';
  const feedbackTarget = (c: Context): { job: V1JobRecord; product: V1Product } => {
    const documentId = c.req.param('document_id') ?? '';
    const job = isUuid(documentId) ? deps.v1Jobs.findByDocument(documentId) : undefined;
    const product = job && deps.models.findProduct(job.account, job.name, job.version);
    if (!job || job.status !== 'completed' || !product) {
      throw new ProblemError('404-009', `No document ${documentId} is available.`);
    }
    if (!product.feedback) {
      throw new ProblemError(
        '403-002',
        `Feedback is not enabled for ${product.account}/${product.name}/v${product.version}.`,
      );
    }
    return { job, product };
  };
  const feedbackAnswer = (c: Context, job: V1JobRecord, product: V1Product) => {
    c.header('Cache-Control', 'no-store');
    return c.json({
      api_request: apiRequest(url(c), 200, ['feedback']),
      feedback: feedbackJson(product, deps.v1Jobs.findFeedback(job.documentId)),
    });
  };
  const saveFeedback = (method: 'PUT' | 'PATCH') => async (c: Context) => {
    const { job, product } = feedbackTarget(c);
    // Read as text: the official client sends the JSON without a Content-Type. Feedback is a few
    // fields: 1 MB, counted as it streams, and no deeper than 64 levels.
    const text = await readBodyText(c.req.raw, DEFAULT_MAX_BODY_BYTES);
    checkJsonDepth(text);
    const sent = parseFeedback(text, product);
    const stored = deps.v1Jobs.findFeedback(job.documentId);
    deps.v1Jobs.saveFeedback(job.documentId, combineFeedback(method, stored, sent));
    return feedbackAnswer(c, job, product);
  };
  v1.put(FEEDBACK, saveFeedback('PUT'));
  v1.patch(FEEDBACK, saveFeedback('PATCH'));
  v1.get(FEEDBACK, (c) => {
    const { job, product } = feedbackTarget(c);
    return feedbackAnswer(c, job, product);
  });

  v1.all('*', (c) => {
    throw new ProblemError('404-003', `No route for ${c.req.method} ${c.req.path}.`);
  });
  return v1;
}

/** The product named in the path; the version written `v4` or `4`. */
function productOf(c: Context, models: ModelCatalog): V1Product {
  const account = c.req.param('account') ?? '';
  const name = c.req.param('name') ?? '';
  const given = c.req.param('version') ?? '';
  const version = /^v?(\d+)$/i.exec(given)?.[1];
  const product = version === undefined ? undefined : models.findProduct(account, name, version);
  if (!product) throw new ProblemError('404-008', `No product ${account}/${name}/${given}.`);
  return product;
}

function jobOf(c: Context, jobs: V1JobService): V1JobRecord {
  const id = c.req.param('job_id') ?? '';
  const job = isUuid(id) ? jobs.find(id) : undefined;
  if (!job) throw new ProblemError('404-001', `No job has the id ${id}.`);
  return job;
}

/** A job or document asked for under another product's path is not found there. */
function sameProduct(job: V1JobRecord, product: V1Product): void {
  if (job.account !== product.account || job.name !== product.name || job.version !== product.version) {
    throw new ProblemError(
      '404-001',
      `No job or document of ${product.account}/${product.name} has this id.`,
    );
  }
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** `Authorization: Token <key>` (spec §5), compared in constant time as the v2 key check does. */
export function requireToken(apiKey: string): MiddlewareHandler {
  const expected = digest(apiKey);
  return async (c, next) => {
    const given = c.req.header('authorization')?.trim();
    if (!given) throw new ProblemError('401-008', 'No token provided.');
    const token = /^Token\s+(.+)$/i.exec(given)?.[1]?.trim() ?? '';
    if (!timingSafeEqual(digest(token), expected)) {
      throw new ProblemError('401-001', 'Invalid token provided: send "Authorization: Token <key>".');
    }
    await next();
  };
}
