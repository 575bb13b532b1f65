import { useQuery } from '@tanstack/react-query';
import { hasGivenUpOnJob, modelsQueryOptions } from '../../api/v2/queries';
import type { Job } from '@extraction-review/contract/v2/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { GaveUpNotice, StatusBadge } from './job-state-parts';
import { formatDuration, jobDurationSeconds, useNow } from './use-elapsed';
import { WebhookOutcomes } from './webhook-outcomes';

/**
 * Where a job stands, for its page: processing with its elapsed time (or given up on past the 590 s
 * limit, with "check again"), or failed with the service's problem; and each webhook delivery's outcome.
 */
export function JobStatus({ job }: { job: Job }) {
  const processing = job.status === 'Processing';
  const now = useNow(processing);
  const seconds = jobDurationSeconds(job.created_at, job.completed_at, now);
  const gaveUp = hasGivenUpOnJob(job, now);
  const models = useQuery(modelsQueryOptions());
  const known = models.data?.models.find((m) => m.id === job.model_id)?.webhooks ?? [];

  return (
    <section aria-label="Job" className="flex flex-col gap-3" data-job-id={job.id} data-status={job.status}>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">File</dt>
        <dd className="break-all">{job.filename}</dd>
        {job.alias && (
          <>
            <dt className="text-slate-600">Alias</dt>
            <dd>{job.alias}</dd>
          </>
        )}
        <dt className="text-slate-600">Job</dt>
        <dd className="font-mono text-xs leading-5 break-all">{job.id}</dd>
        <dt className="text-slate-600">Status</dt>
        <dd>
          <StatusBadge status={job.status} />
        </dd>
        {seconds !== null && (
          <>
            <dt className="text-slate-600">{processing ? 'Elapsed' : 'Took'}</dt>
            <dd>{formatDuration(seconds)}</dd>
          </>
        )}
      </dl>
      <WebhookOutcomes webhooks={job.webhooks} known={known} />
      {processing && !gaveUp && <Spinner label="Extracting… the page updates by itself." />}
      {gaveUp && <GaveUpNotice jobId={job.id} />}
      {job.status === 'Failed' && (
        <ProblemAlert
          error={job.error ?? { title: 'The job failed', detail: 'The service gave no reason.' }}
          action="Check the document and the options it was sent with, then send it again from New extraction."
        />
      )}
    </section>
  );
}
