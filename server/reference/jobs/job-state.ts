/**
 * The extraction job's state machine (spec §3.1), in one place:
 *
 *   (enqueue) ──▶ Processing ──processed──▶ Processed   (completed_at, result_url filled; poll → 302)
 *                      └───────failed─────▶ Failed      (completed_at, error filled; poll → 200)
 *
 * Processed and Failed are final: a late event (a timed-out extraction finishing anyway, a second
 * worker) is refused, never applied. Pure functions; the store persists what they return.
 */
import type { ProblemBody } from '@extraction-review/contract/problem';
import type { JobStatus } from '@extraction-review/document-text/api-types';
import type { JobOptions, JobRecord } from '../store/job-store';

export type JobEvent =
  { type: 'processed'; inferenceId: string; at: Date } | { type: 'failed'; error: ProblemBody; at: Date };

export class InvalidTransitionError extends Error {
  constructor(job: JobRecord, event: JobEvent) {
    super(`Job ${job.id} is ${job.status}; it cannot take the event "${event.type}".`);
    this.name = 'InvalidTransitionError';
  }
}

export const isFinal = (status: JobStatus): boolean => status !== 'Processing';

export function newJob(input: {
  id: string;
  modelId: string;
  filename: string;
  alias: string | null;
  mimeType: string;
  fileSize: number;
  /** Resolved at enqueue; left out, the model's defaults apply when processing. */
  options?: JobOptions | null;
  webhookIds?: readonly string[];
  at: Date;
}): JobRecord {
  const { at, options = null, webhookIds = [], ...rest } = input;
  return {
    ...rest,
    createdAt: at.toISOString(),
    completedAt: null,
    status: 'Processing',
    inferenceId: null,
    error: null,
    options,
    webhookIds: webhookIds.map((id) => id.toLowerCase()),
    attempts: 0,
  };
}

export function transition(job: JobRecord, event: JobEvent): JobRecord {
  if (isFinal(job.status)) throw new InvalidTransitionError(job, event);
  const completedAt = event.at.toISOString();
  switch (event.type) {
    case 'processed':
      return { ...job, status: 'Processed', completedAt, inferenceId: event.inferenceId, error: null };
    case 'failed':
      return { ...job, status: 'Failed', completedAt, inferenceId: null, error: event.error };
  }
}

/**
 * How a poll answers (spec §3.1, API-FACTS): a processed job redirects to its result unless the caller
 * asked `redirect=false`; anything else is a 200 with the job.
 */
export function pollAnswer(
  job: JobRecord,
  redirect: boolean,
): { status: 200 } | { status: 302; inferenceId: string } {
  return job.status === 'Processed' && redirect && job.inferenceId
    ? { status: 302, inferenceId: job.inferenceId }
    : { status: 200 };
}
