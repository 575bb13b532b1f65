import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ApiError } from '../../api/errors';
import { v1JobQueryOptions } from '../../api/v1/queries';
import { ProblemAlert } from '../../components/problem-alert';
import type { StoredJob, StoredV1 } from '../../lib/document-store';
import { v1JobHref, v1Ref } from '../../lib/v1-product';
import { StatusBadge } from './job-state-parts';
import { v1BadgeStatus, v1JobOutcome } from './v1-job-state';
import { RemoveJobButton } from './remove-job-button';

interface Props {
  stored: StoredJob;
  product: StoredV1;
  onRemove: (jobId: string) => void;
}

const sentAt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A v1 prediction in the job list: an async one followed through its queue until it ends (the same
 * cadence as v2); a synchronous one was answered with its document, so there is nothing to follow.
 */
export function V1JobRow({ stored, product, onRemove }: Props) {
  const async = product.mode === 'async';
  const query = useQuery({ ...v1JobQueryOptions(v1Ref(product), stored.jobId), enabled: async });
  const outcome = async ? v1JobOutcome(query.data) : null;
  const badge = outcome ? v1BadgeStatus(outcome) : 'Processed';
  const name = stored.filename;

  return (
    <li
      data-job-id={stored.jobId}
      data-api="v1"
      data-status={badge ?? 'unknown'}
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white p-3"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link
          href={v1JobHref(stored.jobId)}
          className="min-w-0 flex-1 truncate font-medium text-blue-900 underline-offset-2 hover:underline"
        >
          {name}
        </Link>
        {badge ? <StatusBadge status={badge} /> : <span className="text-xs text-slate-600">Checking…</span>}
        <RemoveJobButton name={name} onRemove={() => onRemove(stored.jobId)} />
      </div>
      <p className="text-xs text-slate-600">
        v1 {stored.modelName ?? stored.modelId} ({async ? 'asynchronous' : 'synchronous'}) · sent{' '}
        {sentAt.format(new Date(stored.createdAt))}
      </p>
      {query.isError && (
        <ProblemAlert
          error={query.error}
          onRetry={() => void query.refetch()}
          action={
            query.error instanceof ApiError && query.error.status === 404
              ? 'The service no longer knows this job: remove it from the list.'
              : undefined
          }
        />
      )}
      {outcome?.kind === 'failed' && (
        <ProblemAlert
          error={outcome.error}
          action="Check the document and the product it was sent to, then send it again."
        />
      )}
    </li>
  );
}
