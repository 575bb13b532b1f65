import type { Job } from '../../api/v2/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { useElapsedSeconds } from './use-elapsed';

/** Where a job stands: processing with its elapsed time, or failed with the service's problem. */
export function JobStatus({ job }: { job: Job }) {
  const processing = job.status === 'Processing';
  const elapsed = useElapsedSeconds(job.created_at, processing);
  return (
    <section aria-label="Job" className="flex flex-col gap-3">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">File</dt>
        <dd>{job.filename}</dd>
        <dt className="text-slate-600">Job</dt>
        <dd className="font-mono text-xs leading-5">{job.id}</dd>
        <dt className="text-slate-600">Status</dt>
        <dd data-testid="job-status">{job.status}</dd>
      </dl>
      {processing && <Spinner label={`Extracting… ${elapsed == null ? '' : `${elapsed} s`}`} />}
      {job.status === 'Failed' && (
        <ProblemAlert
          error={job.error ?? { title: 'The job failed', detail: 'The service gave no reason.' }}
          action="Check the document and the model, then send it again."
        />
      )}
    </section>
  );
}
