/**
 * The webhooks as the reference service wires them: a delivery store and a dispatcher on the service's
 * database, endpoints read from the models file, deliveries a previous run left in progress resumed.
 * What it returns plugs into the job service (`onFinished`, `webhookDeliveries`) and its shutdown.
 */
import type Database from 'better-sqlite3';
import type { ExtractionInference, WebhookResponse } from '@extraction-review/document-text/api-types';
import type { Clock } from '@extraction-review/server-kit/clock';
import { WebhookDeliveryStore } from './delivery-store';
import { WebhookDispatcher, type EndpointResolver, type RetryPolicy } from './dispatcher';
import type { FinishedJob } from './payload';
import { V1_SIGNATURE_HEADERS, v1ProductKeyOf } from '../v1/v1-webhooks';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('reference webhooks');

interface WebhookOwner {
  webhooks: readonly { id: string; url: string; secret: string }[];
}

/** The part of the model catalogue webhooks read (a `ModelCatalog` is one). */
export interface WebhookCatalog {
  find(modelId: string): WebhookOwner | undefined;
  /** v1 products, which own endpoints too (v1/v1-webhooks.ts). */
  findProductByKey?(key: string): WebhookOwner | undefined;
}

/**
 * Endpoints as the models file configures them, looked up again at each call: a v2 model's by its id,
 * a v1 product's by its owner key (v1-webhooks.ts), signed in the v1 headers.
 */
export function catalogEndpoints(models: WebhookCatalog): EndpointResolver {
  return (ownerId, endpointId) => {
    const productKey = v1ProductKeyOf(ownerId);
    const owner = productKey === undefined ? models.find(ownerId) : models.findProductByKey?.(productKey);
    const hook = owner?.webhooks.find((candidate) => candidate.id.toLowerCase() === endpointId.toLowerCase());
    if (!hook) return undefined;
    const endpoint = { id: hook.id.toLowerCase(), url: hook.url, secret: hook.secret };
    return productKey === undefined ? endpoint : { ...endpoint, signatureHeaders: V1_SIGNATURE_HEADERS };
  };
}

export interface WebhooksExtensionOptions {
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  log?: (message: string) => void;
}

export interface WebhooksExtension {
  dispatcher: WebhookDispatcher;
  /** For the job service: records and starts the deliveries of a job that just became final. */
  onFinished(
    job: FinishedJob & { webhookIds: readonly string[] },
    inference?: { body: ExtractionInference },
  ): void;
  /** For the job service: `job.webhooks` of a finished job. */
  webhookDeliveries: { deliveriesFor(jobId: string): WebhookResponse[] };
  /** Stops the deliveries (they resume at the next start); before the database closes. */
  close(): Promise<void>;
}

export function openWebhooks(
  context: { database: Database.Database; models: WebhookCatalog; clock?: Clock },
  options: WebhooksExtensionOptions = {},
): WebhooksExtension {
  const dispatcher = new WebhookDispatcher({
    store: new WebhookDeliveryStore(context.database),
    resolveEndpoint: catalogEndpoints(context.models),
    clock: context.clock,
    ...options,
  });
  const { resumed } = dispatcher.resumeInterrupted();
  if (resumed > 0) logger.info(`webhook deliveries from the previous run: ${resumed} resumed`);
  return {
    dispatcher,
    onFinished: (job, inference) => dispatcher.jobFinished(job, inference),
    webhookDeliveries: dispatcher,
    close: () => dispatcher.close(),
  };
}
