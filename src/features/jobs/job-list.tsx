import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { jobKeys } from '../../api/keys';
import { ProblemAlert } from '../../components/problem-alert';
import { Spinner } from '../../components/ui/spinner';
import { documentStoreKeys, listJobs, removeJob } from '../../lib/document-store';
import { deleteDraft, draftStoreKeys } from '../../lib/draft-store';
import { useJobEvents, type LiveState } from './job-events';
import { JobRow } from './job-row';
import { RateLimitNotice } from './rate-limit-notice';
import { V1JobRow } from './v1-job-row';

const LIVE_TEXT: Record<LiveState, string> = {
  open: 'Live updates on: finished jobs show at once.',
  connecting: 'Connecting for live updates…',
  reconnecting: 'Live updates interrupted, reconnecting; jobs are still checked every few seconds.',
  off: 'Live updates off: jobs are checked every few seconds.',
};

/** The operator's jobs, kept in this browser: newest first, each followed until it ends. */
export function JobList() {
  const queryClient = useQueryClient();
  const stored = useQuery({ queryKey: documentStoreKeys.list(), queryFn: listJobs });
  const events = useJobEvents();
  const [removeError, setRemoveError] = useState<unknown>(null);

  async function onRemove(jobId: string) {
    try {
      // The file, the job and any unsent corrections: nothing of the job is left in this browser.
      await Promise.all([removeJob(jobId), deleteDraft(jobId)]);
      setRemoveError(null);
      queryClient.removeQueries({ queryKey: draftStoreKeys.detail(jobId), exact: true });
      queryClient.removeQueries({ queryKey: jobKeys.detail(jobId), exact: true });
      queryClient.removeQueries({ queryKey: documentStoreKeys.detail(jobId), exact: true });
      await queryClient.invalidateQueries({ queryKey: documentStoreKeys.list() });
    } catch (error) {
      setRemoveError(error);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-slate-600" data-live={events.live}>
        {LIVE_TEXT[events.live]}
      </p>
      <RateLimitNotice />
      {removeError != null && (
        <ProblemAlert
          error={removeError}
          action="The job could not be removed from this browser; reload and try again."
        />
      )}
      {stored.isPending && <Spinner label="Loading your jobs…" />}
      {stored.isError && (
        <ProblemAlert
          error={stored.error}
          action="This browser’s storage could not be read (private mode, or storage blocked): jobs cannot be listed."
        />
      )}
      {stored.data?.length === 0 && (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
          No jobs yet.{' '}
          <Link href="/" className="text-blue-800 underline">
            Start a new extraction
          </Link>
        </p>
      )}
      {stored.data && stored.data.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Your jobs">
          {stored.data.map((job) =>
            job.api === 'v1' && job.v1 ? (
              <V1JobRow key={job.jobId} stored={job} product={job.v1} onRemove={(id) => void onRemove(id)} />
            ) : (
              <JobRow
                key={job.jobId}
                stored={job}
                updatedByEvent={events.updatedByEvent.has(job.jobId)}
                onRemove={(id) => void onRemove(id)}
              />
            ),
          )}
        </ul>
      )}
    </div>
  );
}
