/** Records → the v2 JSON bodies. */
import type { JobJson, WebhookResponse } from '@extraction-review/document-text/api-types';
import type { JobRecord } from '../store/job-store';
import type { ServiceUrls } from './service-urls';

/**
 * The hosted service writes timestamps without a zone and with microseconds
 * ("2025-07-03T14:27:58.974451", UTC): written the same way so clients meet one format.
 */
export function hostedTimestamp(iso: string): string {
  return new Date(iso).toISOString().replace('Z', '000');
}

/** `webhooks`: the job's deliveries (JobService.webhooksOf), empty until processing is finished. */
export function jobJson(job: JobRecord, urls: ServiceUrls, webhooks: WebhookResponse[]): JobJson {
  return {
    id: job.id,
    model_id: job.modelId,
    filename: job.filename,
    alias: job.alias,
    created_at: hostedTimestamp(job.createdAt),
    completed_at: job.completedAt && hostedTimestamp(job.completedAt),
    status: job.status,
    polling_url: urls.job(job.id),
    result_url: job.inferenceId && urls.result(job.inferenceId),
    webhooks,
    error: job.error,
  };
}
