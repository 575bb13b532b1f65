/**
 * A queued document's `result` (the upstream's answer as it came, docs/review-store.md) in the
 * review's shape: a v2 inference response as is, a v1 document response through the v1 adapter
 * (pages turned upright, numeric confidences graded), as the /jobs and /jobs/v1 reviews show them. A
 * result that does not match says where, for a ProblemAlert: never a crash.
 */
import { check, type ValidationIssue } from '@extraction-review/contract/issues';
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { V1DocumentResponse } from '@extraction-review/contract/v1/schemas';
import { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import type { ConfidenceThresholds } from '../v1/v1-confidence';
import { v1DocumentToReview } from '../v1/v1-to-review';
import type { Rotation } from '../viewer/geometry';

export interface QueueReviewInput {
  response: ExtractionResponse;
  /** v1: the clockwise turn that shows each stored page upright. */
  pageTurns: readonly Rotation[] | undefined;
}

export type ReadQueueResult =
  | { ok: true; review: QueueReviewInput }
  | { ok: false; problem: { title: string; detail: string; errors: { pointer: string; detail: string }[] } };

/** Only the document is read from a v1 response: the envelope (`api_request`, `job`) is not reviewed. */
const V1Result = V1DocumentResponse.pick({ document: true });

export function readQueueResult(
  document: Pick<ReviewDocument, 'apiVersion' | 'result' | 'model' | 'upstreamJobId'>,
  thresholds?: ConfidenceThresholds,
): ReadQueueResult {
  if (document.apiVersion === 'v2') {
    const v2 = check(ExtractionResponse, document.result);
    return v2.success
      ? { ok: true, review: { response: v2.data, pageTurns: undefined } }
      : mismatch('v2 extraction result', v2.issues);
  }
  const v1 = check(V1Result, document.result);
  if (!v1.success) return mismatch('v1 document', v1.issues);
  try {
    const { response, pageRotations } = v1DocumentToReview(v1.data.document, {
      modelId: document.model,
      jobId: document.upstreamJobId ?? undefined,
      thresholds,
    });
    return { ok: true, review: { response, pageTurns: pageRotations } };
  } catch (error) {
    return {
      ok: false,
      problem: {
        title: 'This v1 document cannot be shown',
        detail: error instanceof Error ? error.message : String(error),
        errors: [],
      },
    };
  }
}

function mismatch(what: string, issues: readonly ValidationIssue[]): ReadQueueResult {
  return {
    ok: false,
    problem: {
      title: `The stored result is not a ${what} this app can read`,
      detail: 'The review store kept the upstream’s answer, but these places do not match the API:',
      errors: issues.map((i) => ({ pointer: i.pointer, detail: i.message })),
    },
  };
}
