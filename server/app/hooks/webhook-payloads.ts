/**
 * What a v2 webhook delivers, told apart by key as the official clients do:
 *
 * - `inference`: a processed job's ExtractionResponse, the body its result URL answers (spec §6,
 *   API-FACTS "the payload equals the polling result"), checked with the browser app's own schema;
 * - `error`: a job that failed before producing a result, the hosted service's failure payload
 *   (`FailedInferenceResponse` of the official clients, recorded as `v2/errors/webhook_error_500_failed.json`
 *   in mindee/client-lib-test-data; the reference service sends the same, server/reference/webhooks/payload.ts).
 *   It names no job: its `inference_id` is the job's id on the reference service, and is taken as such.
 *
 * Anything else is refused (422), each problem with its JSON pointer.
 */
import { z } from 'zod';
import { Id } from '@extraction-review/contract/common-schemas';
import { check } from '@extraction-review/contract/issues';
import { ErrorResponse, ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import type { ProblemItem } from '@extraction-review/contract/problem';

/** Read liberally (docs/decisions/0003): only what identifies the job and says what went wrong is required. */
export const FailedInferenceWebhook = z.object({
  inference_id: Id,
  model_id: Id.optional(),
  file_name: z.string().optional(),
  file_alias: z.string().nullable().optional(),
  error: ErrorResponse,
  created_at: z.string().optional(),
});
export type FailedInferenceWebhook = z.infer<typeof FailedInferenceWebhook>;

export type WebhookOutcome =
  { status: 'Processed'; jobId: string; inferenceId: string } | { status: 'Failed'; jobId: string };

export type ClassifiedPayload =
  { success: true; outcome: WebhookOutcome } | { success: false; detail: string; errors: ProblemItem[] };

export function classifyWebhookPayload(body: unknown): ClassifiedPayload {
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (isObject && 'inference' in body) {
    const checked = check(ExtractionResponse, body);
    if (checked.success) {
      const { inference } = checked.data;
      return {
        success: true,
        outcome: { status: 'Processed', jobId: inference.job.id, inferenceId: inference.id },
      };
    }
    return refused('The body has an `inference` but is not an ExtractionResponse.', checked.issues);
  }
  if (isObject && 'error' in body) {
    const checked = check(FailedInferenceWebhook, body);
    if (checked.success)
      return { success: true, outcome: { status: 'Failed', jobId: checked.data.inference_id } };
    return refused('The body has an `error` but is not a failed-inference payload.', checked.issues);
  }
  return {
    success: false,
    detail:
      'Expected an ExtractionResponse `{ "inference": … }` or a failed-inference payload ' +
      '`{ "inference_id": …, "error": … }`.',
    errors: [{ pointer: '#', detail: 'neither an `inference` nor an `error` key' }],
  };
}

function refused(
  detail: string,
  issues: readonly { pointer: string; message: string }[],
): Extract<ClassifiedPayload, { success: false }> {
  // A large result can have many problems; the first few say enough.
  return {
    success: false,
    detail,
    errors: issues.slice(0, 20).map((issue) => ({ pointer: issue.pointer, detail: issue.message })),
  };
}
