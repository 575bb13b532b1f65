/** Small pieces shared by the job list's rows and the job page's status. */
import { useQueryClient } from '@tanstack/react-query';
import { jobKeys } from '../../api/keys';
import { GIVE_UP_AFTER_MS } from '../../api/v2/queries';
import type { JobStatus } from '@extraction-review/contract/v2/schemas';
import { Button } from '../../components/ui/button';
import { formatDuration } from './use-elapsed';

const BADGE: Record<JobStatus, { icon: string; className: string }> = {
  Processing: { icon: '◌', className: 'bg-blue-50 text-blue-900 ring-blue-300' },
  Processed: { icon: '✓', className: 'bg-green-50 text-green-900 ring-green-400' },
  Failed: { icon: '✕', className: 'bg-red-50 text-red-900 ring-red-400' },
};

/** The status in words with a shape, never by colour alone. */
export function StatusBadge({ status }: { status: JobStatus }) {
  const { icon, className } = BADGE[status];
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${className}`}
    >
      <span aria-hidden="true" className={status === 'Processing' ? 'animate-spin' : undefined}>
        {icon}
      </span>
      <span data-testid="job-status">{status}</span>
    </span>
  );
}

/** Polling stopped on a job still `Processing` past the 590 s limit: say so, and offer one more look. */
export function GaveUpNotice({ jobId }: { jobId: string }) {
  const queryClient = useQueryClient();
  return (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-semibold">No answer after {formatDuration(GIVE_UP_AFTER_MS / 1000)}</p>
      <p className="mt-1">
        The service stops any job after 590 s, so this one should have ended by now; this page has stopped
        checking. The service may be unreachable or behind: check again, or send the document again.
      </p>
      <Button
        variant="secondary"
        className="mt-2 px-3 py-1 text-xs"
        onClick={() => void queryClient.refetchQueries({ queryKey: jobKeys.detail(jobId), exact: true })}
      >
        Check again
      </Button>
    </div>
  );
}
