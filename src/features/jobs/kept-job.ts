import { isJobSettled } from '../../api/v2/queries';
import { ExtractionResponse, Job, type JobResponse } from '@extraction-review/contract/v2/schemas';

/**
 * A finished job as this browser kept it (`StoredJob.settledJob`), in the job query's shape: what a
 * reload shows without asking for the job again. Undefined when nothing was kept, or what was kept
 * no longer reads as a job that cannot change (an older shape, webhooks still being delivered).
 */
export function keptSettledJob(settledJob: unknown): JobResponse | undefined {
  const parsed = Job.safeParse(settledJob);
  return parsed.success && isJobSettled(parsed.data) ? { job: parsed.data } : undefined;
}

/**
 * A finished job's result as this browser kept it (`StoredJob.settledResult`): what a reload shows
 * without asking for it again. Undefined when nothing was kept or it no longer reads as a result (an
 * older shape): it is then fetched again.
 */
export function keptResult(settledResult: unknown): ExtractionResponse | undefined {
  if (settledResult == null) return undefined;
  const parsed = ExtractionResponse.safeParse(settledResult);
  return parsed.success ? parsed.data : undefined;
}
