import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { NetworkError, ProblemDetailsError } from '../../api/errors';
import { describeError } from '../../components/describe-error';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { formatBytes } from '../../lib/check-document';
import { useUploadQueue, useUploads } from './upload-queue-provider';
import { isFinished, type UploadItem, type UploadPhase } from './upload-queue';

/** What to do about a failed upload, in its own terms (describe-error knows the errors, not the uploads). */
export function uploadFailureAdvice(error: unknown): string {
  if (error instanceof NetworkError)
    return 'The connection broke while sending. If it broke after the file had arrived, the service may have queued it anyway: look in the job list before you retry.';
  if (error instanceof ProblemDetailsError && error.errors.some((e) => e.pointer === '#/file'))
    return error.status === 413
      ? 'The file is too large for the service: split it, or save it at a lower resolution, and add the new file.'
      : 'The service cannot read this file: open it and save (or print) it again as PDF, then add the new file.';
  if (error instanceof ProblemDetailsError && error.errors.some((e) => e.pointer === '#/url'))
    return 'The service could not fetch this URL: it must be public, served over HTTPS, without a redirection. Correct it and send it again, or download the file and send it from this computer.';
  if (error instanceof ProblemDetailsError && (error.status === 422 || error.status === 400))
    return 'Remove this row, correct what is pointed out above in the form, and add the file again.';
  return describeError(error).hint;
}

/** Re-renders every half second while `active`, for countdowns. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function phaseText(phase: UploadPhase, now: number, concurrency: number): string {
  switch (phase.kind) {
    case 'queued':
      return `Waiting: ${concurrency} uploads at a time`;
    case 'sending':
      return phase.total > 0 && phase.loaded >= phase.total
        ? 'Sent; waiting for the service to accept it…'
        : `Uploading… ${phase.total > 0 ? Math.floor((phase.loaded / phase.total) * 100) : 0}%`;
    case 'rate-limited':
      return `Rate limited by the service: retrying in ${Math.max(0, Math.ceil((phase.until - now) / 1000))} s (retry ${phase.retry})`;
    case 'enqueued':
      return 'Queued for extraction';
    case 'failed':
      return 'Not sent';
    case 'cancelled':
      return 'Cancelled';
  }
}

/** The uploads of this session, each with its progress and what can be done with it. */
export function UploadList({ jobsLink = false }: { jobsLink?: boolean }) {
  const queue = useUploadQueue();
  const uploads = useUploads();
  const now = useNow(uploads.some((u) => u.phase.kind === 'rate-limited'));
  if (uploads.length === 0) return null;
  const finished = uploads.filter((u) => isFinished(u.phase)).length;

  return (
    <section className="flex flex-col gap-2" aria-labelledby="sending-heading">
      <div className="flex items-center gap-3">
        <h2 id="sending-heading" className="text-lg font-semibold">
          Sent from this browser
        </h2>
        <span className="text-sm text-slate-600">
          {uploads.length - finished} going, {finished} done
        </span>
        <span className="flex-1" />
        {jobsLink && (
          <Link href="/uploads" className="text-sm font-medium text-blue-800 underline">
            Follow them in Uploads
          </Link>
        )}
        {finished > 0 && (
          <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => queue.clearFinished()}>
            Clear finished
          </Button>
        )}
      </div>
      <ul className="flex flex-col gap-2">
        {uploads.map((upload) => (
          <UploadRow key={upload.id} upload={upload} now={now} concurrency={queue.concurrency} />
        ))}
      </ul>
    </section>
  );
}

function UploadRow({
  upload,
  now,
  concurrency,
}: {
  upload: UploadItem<unknown>;
  now: number;
  concurrency: number;
}) {
  const queue = useUploadQueue();
  const { phase } = upload;
  const labelId = `upload-${upload.id}`;
  return (
    <li
      data-upload={upload.label}
      data-phase={phase.kind}
      className="flex flex-col gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span id={labelId} className="min-w-0 flex-1 truncate font-medium" title={upload.label}>
          {upload.label}
        </span>
        {upload.size !== null && <span className="text-xs text-slate-600">{formatBytes(upload.size)}</span>}
        <span
          role="status"
          className={`text-xs ${phase.kind === 'rate-limited' ? 'font-medium text-amber-900' : 'text-slate-700'}`}
        >
          {phaseText(phase, now, concurrency)}
        </span>
        {(phase.kind === 'queued' || phase.kind === 'sending' || phase.kind === 'rate-limited') && (
          <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => queue.cancel(upload.id)}>
            Cancel
          </Button>
        )}
        {phase.kind === 'enqueued' && (
          <Link
            href={phase.href ?? `/jobs/${encodeURIComponent(phase.jobId)}`}
            className="text-xs font-medium text-blue-800 underline"
          >
            Open job
          </Link>
        )}
        {phase.kind === 'cancelled' && (
          <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => queue.retry(upload.id)}>
            Send again
          </Button>
        )}
      </div>
      {(phase.kind === 'sending' || phase.kind === 'rate-limited' || phase.kind === 'queued') && (
        <progress
          aria-labelledby={labelId}
          max={phase.kind === 'sending' && phase.total > 0 ? phase.total : 1}
          value={phase.kind === 'sending' ? phase.loaded : 0}
          className="h-2 w-full overflow-hidden rounded [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-blue-700"
        />
      )}
      {phase.kind === 'enqueued' && phase.warning && (
        <p role="alert" className="text-xs text-amber-900">
          {phase.warning}
        </p>
      )}
      {phase.kind === 'failed' && (
        <ProblemAlert
          error={phase.error}
          action={
            <span className="flex flex-wrap items-center gap-3">
              <span>{uploadFailureAdvice(phase.error)}</span>
              <Button
                variant="secondary"
                className="px-2 py-1 text-xs"
                onClick={() => queue.retry(upload.id)}
              >
                Retry
              </Button>
              <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => queue.dismiss(upload.id)}>
                Remove
              </Button>
            </span>
          }
        />
      )}
    </li>
  );
}
