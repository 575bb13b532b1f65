/**
 * Where a v1 prediction stands, from what its page has read: the queued job while it runs, the
 * document once the followed 302 brought it (or a synchronous predict answered it), the job's own error
 * once it failed. Pure, so the page and the job list read the queue the same way.
 */
import type { V1JobFailedError } from '../../api/errors';
import { v1JobFailure } from '../../api/v1/endpoints';
import {
  hasDocument,
  type V1Document,
  type V1Job,
  type V1QueueResponse,
} from '@extraction-review/contract/v1/schemas';
import type { JobStatus } from '@extraction-review/contract/v2/schemas';

export type V1JobOutcome =
  | { kind: 'pending' }
  | { kind: 'running'; job: V1Job }
  | { kind: 'failed'; job: V1Job; error: V1JobFailedError }
  | { kind: 'done'; document: V1Document; job: V1Job | undefined }
  /** `completed` without the document: the redirect to it was not followed (should not happen in a browser). */
  | { kind: 'lost'; job: V1Job };

export function v1JobOutcome(data: V1QueueResponse | undefined): V1JobOutcome {
  if (!data) return { kind: 'pending' };
  if (hasDocument(data)) return { kind: 'done', document: data.document, job: data.job };
  const { job } = data;
  const error = v1JobFailure(job);
  if (error) return { kind: 'failed', job, error };
  return job.status === 'completed' ? { kind: 'lost', job } : { kind: 'running', job };
}

/** The shared status badge's word for a v1 outcome (v1's own status is shown beside it). */
export function v1BadgeStatus(outcome: V1JobOutcome): JobStatus | null {
  switch (outcome.kind) {
    case 'pending':
      return null;
    case 'running':
      return 'Processing';
    case 'failed':
      return 'Failed';
    case 'done':
    case 'lost':
      return 'Processed';
  }
}
