import { isJobSettled } from '../../api/v2/queries';
import { Job, type JobResponse } from '../../api/v2/schemas';

/**
 * A finished job as this browser kept it (`StoredJob.settledJob`), in the job query's shape: what a
 * reload shows without asking for the job again. Undefined when nothing was kept, or what was kept
 * no longer reads as a job that cannot change (an older shape, webhooks still being delivered).
 */
export function keptSettledJob(settledJob: unknown): JobResponse | undefined {
  const parsed = Job.safeParse(settledJob);
  return parsed.success && isJobSettled(parsed.data) ? { job: parsed.data } : undefined;
}
