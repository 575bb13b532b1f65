import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../../api/errors';
import { v1JobQueryOptions } from '../../api/v1/queries';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import type { StoredJob, StoredV1 } from '../../lib/document-store';
import { v1JobHref, v1Ref } from '../upload/v1-product';
import { StatusBadge } from './job-state-parts';
import { v1BadgeStatus, v1JobOutcome } from './v1-job-state';

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
  const [confirming, setConfirming] = useState(false);
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
        {confirming ? (
          <span className="flex items-center gap-2 text-xs">
            Remove it, its stored file and any unsent corrections?
            <Button variant="secondary" className="px-2 py-1 text-xs" onClick={() => onRemove(stored.jobId)}>
              Remove
            </Button>
            <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </span>
        ) : (
          <Button
            variant="ghost"
            className="px-2 py-1 text-xs"
            aria-label={`Remove ${name} from the list`}
            onClick={() => setConfirming(true)}
          >
            Remove
          </Button>
        )}
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
