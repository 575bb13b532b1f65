import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../api/errors';
import { hasGivenUpOnJob, isJobSettled, jobQueryOptions, modelsQueryOptions } from '../../api/v2/queries';
import { Job } from '@extraction-review/contract/v2/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { updateJob, type StoredJob } from '../../lib/document-store';
import { describeSentOptions } from './describe-options';
import { GaveUpNotice, StatusBadge } from './job-state-parts';
import { formatDuration, jobDurationSeconds, useNow } from './use-elapsed';
import { WebhookOutcomes } from './webhook-outcomes';
import { RemoveJobButton } from './remove-job-button';

interface Props {
  stored: StoredJob;
  updatedByEvent: boolean;
  onRemove: (jobId: string) => void;
}

const sentAt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One job of the list: followed (polling, events) while it runs, with its outcome once it ends. */
export function JobRow({ stored, updatedByEvent, onRemove }: Props) {
  // A job kept once it could no longer change is shown as kept: no request after a reload.
  const kept = useMemo(() => {
    const parsed = Job.safeParse(stored.settledJob);
    return parsed.success && isJobSettled(parsed.data) ? { job: parsed.data } : undefined;
  }, [stored.settledJob]);
  const query = useQuery({ ...jobQueryOptions(stored.jobId), initialData: kept });
  const models = useQuery(modelsQueryOptions());
  const job = query.data?.job;
  const processing = job?.status === 'Processing';
  const now = useNow(processing || query.isError);
  const seconds = job ? jobDurationSeconds(job.created_at, job.completed_at, now) : null;
  const known = models.data?.models.find((m) => m.id === stored.modelId)?.webhooks ?? [];
  const rateLimited = query.error instanceof ApiError && query.error.isRateLimited ? query.error : null;
  const href = `/jobs/${encodeURIComponent(stored.jobId)}`;
  const name = job?.filename ?? stored.filename;

  const settled = job && isJobSettled(job) ? job : null;
  useEffect(() => {
    if (settled && stored.settledJob == null)
      updateJob(stored.jobId, { settledJob: settled }).catch((error: unknown) =>
        console.warn('Could not keep the finished job in this browser', error),
      );
  }, [settled, stored.jobId, stored.settledJob]);

  return (
    <li
      data-job-id={stored.jobId}
      data-status={job?.status ?? 'unknown'}
      data-updated-by={job && job.status !== 'Processing' ? (updatedByEvent ? 'event' : 'poll') : undefined}
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link
          href={href}
          className="min-w-0 flex-1 truncate font-medium text-blue-900 underline-offset-2 hover:underline"
        >
          {name}
        </Link>
        {job ? (
          <StatusBadge status={job.status} />
        ) : (
          <span className="text-xs text-slate-600">Checking…</span>
        )}
        {seconds !== null && (
          <span
            className="w-24 text-right text-xs text-slate-700 tabular-nums"
            title={processing ? 'Elapsed' : 'Took'}
          >
            {processing ? formatDuration(seconds) : `took ${formatDuration(seconds)}`}
          </span>
        )}
        <RemoveJobButton name={name} onRemove={() => onRemove(stored.jobId)} />
      </div>
      <p className="text-xs text-slate-600">
        {stored.modelName ?? stored.modelId} · sent {sentAt.format(new Date(stored.createdAt))}
        {stored.source === 'url' && ' from a URL'} · {describeSentOptions(stored.options)}
      </p>
      {job && <WebhookOutcomes webhooks={job.webhooks} known={known} />}
      {rateLimited && (
        <p role="status" className="text-xs font-medium text-amber-900">
          Rate limited by the service: the next check is in {rateLimited.retryAfterSeconds ?? 'a few'} s.
        </p>
      )}
      {query.isError && !rateLimited && (
        <ProblemAlert
          error={query.error}
          onRetry={() => void query.refetch()}
          action={
            query.error instanceof ApiError && query.error.status === 404
              ? 'The service no longer knows this job (it was deleted, or belongs to another account): remove it from the list.'
              : undefined
          }
        />
      )}
      {job && hasGivenUpOnJob(job, now) && <GaveUpNotice jobId={job.id} />}
      {job?.status === 'Failed' && (
        <ProblemAlert
          error={job.error ?? { title: 'The job failed', detail: 'The service gave no reason.' }}
          action="Check the document and the options it was sent with, then send it again."
        />
      )}
    </li>
  );
}
