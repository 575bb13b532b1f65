/**
 * A queued document's values as the review shows them, for the rules: its stored result read as the
 * review reads it (queue/read-queue-result.ts: v2 as is, v1 through its adapter), with the review
 * store's corrections applied (queue/corrections-sync.ts). The app server reads documents this way
 * too, so a rule fails in the review exactly when it fails on the server.
 */
import type { ReviewDocument } from '@extraction-review/contract/review/schemas';
import { buildReviewTree, type ReviewNode } from '../fields/review-tree';
import { draftFromServer } from '../queue/corrections-sync';
import { readQueueResult, type ReadQueueResult } from '../queue/read-queue-result';
import type { ConfidenceThresholds } from '../v1/v1-confidence';

export type DocumentNodes =
  | { ok: true; nodes: ReviewNode[] }
  | { ok: false; problem: Extract<ReadQueueResult, { ok: false }>['problem'] };

export function documentNodes(
  document: Pick<ReviewDocument, 'apiVersion' | 'result' | 'model' | 'upstreamJobId'> & {
    corrections?: ReviewDocument['corrections'] | undefined;
  },
  thresholds?: ConfidenceThresholds,
): DocumentNodes {
  const read = readQueueResult(document, thresholds);
  if (!read.ok) return read;
  const edits = draftFromServer(document.corrections ?? {});
  return { ok: true, nodes: buildReviewTree(read.review.response.inference.result.fields, edits) };
}
