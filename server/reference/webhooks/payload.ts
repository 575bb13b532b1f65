/**
 * What a job's webhooks receive, as the exact bytes sent (and signed).
 *
 * - A processed job: the ExtractionResponse `{ inference }`, the body the result URL answers (spec §6,
 *   API-FACTS: "the payload equals the polling result").
 * - A failed job: the hosted service's failure payload, which the official clients parse as
 *   `FailedInferenceResponse` ("Webhook payload returned when an inference fails before producing a
 *   result"; recorded body `v2/errors/webhook_error_500_failed.json` of mindee/client-lib-test-data):
 *   `{ inference_id, model_id, file_name, file_alias, error, created_at }`. A failed job has no
 *   inference here, so `inference_id` is the job's id, the one identifier the client holds.
 *
 * Compact JSON (`JSON.stringify` without spacing): some clients strip newlines before verifying the
 * signature (API-FACTS), which only leaves compact JSON intact.
 */
import type { ProblemBody } from '@extraction-review/contract/problem';
import type { ExtractionInference } from '@extraction-review/document-text/api-types';
import { hostedTimestamp } from '../routes/present';

export interface FailedInferenceWebhook {
  inference_id: string;
  model_id: string;
  file_name: string;
  file_alias: string | null;
  error: ProblemBody;
  /** When the job started, ISO 8601 with `Z`, as in the recorded body. */
  created_at: string;
}

/** The parts of a finished job a payload is made of (a `JobRecord` has them all). */
export interface FinishedJob {
  id: string;
  modelId: string;
  filename: string;
  alias: string | null;
  createdAt: string;
  error: ProblemBody | null;
}

export function webhookPayload(job: FinishedJob, inference?: { body: ExtractionInference }): string {
  if (inference) return JSON.stringify({ inference: inference.body });
  const failed: FailedInferenceWebhook = {
    inference_id: job.id,
    model_id: job.modelId,
    file_name: job.filename,
    file_alias: job.alias,
    error: job.error ?? {
      status: 500,
      title: 'Processing failed',
      detail: 'The job failed without a recorded error.',
      code: '500-002',
      errors: [],
    },
    created_at: `${hostedTimestamp(job.createdAt)}Z`,
  };
  return JSON.stringify(failed);
}
