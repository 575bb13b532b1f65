import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { extractionResultQueryOptions, isJobSettled, jobQueryOptions } from '../api/v2/queries';
import { ProblemAlert } from '../components/problem-alert';
import { Spinner } from '../components/ui/spinner';
import { keptResult, keptSettledJob } from '../features/jobs/kept-job';
import { JobStatus } from '../features/jobs/job-status';
import { RateLimitNotice } from '../features/jobs/rate-limit-notice';
import { ResultUnavailable } from '../features/review/result-unavailable';
import { useJobWords } from '../features/review/pick/use-job-words';
import { ReviewView } from '../features/review/review-view';
import { preloadDocumentViewer, useOpenDocumentAhead } from '../features/review/viewer/preload';
import { updateJob, type StoredDocument } from '../lib/document-store';
import { ErrorBoundary } from './error-boundary';
import { storedDocumentQueryOptions } from './stored-document-query';
import { useJobDocument } from './use-job-document';

/**
 * One job: followed while it runs, then reviewed: as the server-kept document's one review
 * (`/review/{id}`, use-job-document.ts) when the app server kept it, else here.
 */
export function JobRoute({ jobId }: { jobId: string }) {
  const kept = useJobDocument('v2', jobId);
  if (kept.kind === 'checking') return <JobFrame title="Job" note="Looking for the job’s document…" />;
  if (kept.kind === 'opening') return <JobFrame title="Job" note="The result is in: opening its review…" />;
  return <FollowedJob jobId={jobId} serverKept={kept.kind === 'kept'} />;
}

function JobFrame({ title, note }: { title: string; note: string }) {
  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold break-all">{title}</h1>
      <Spinner label={note} />
    </main>
  );
}

function FollowedJob({ jobId, serverKept }: { jobId: string; serverKept: boolean }) {
  const stored = useQuery(storedDocumentQueryOptions(jobId));
  // A finished job this browser kept is shown as kept, and its result asked for at once: no request
  // for the job. Otherwise the job is asked for once the store has been read.
  const kept = useMemo(() => keptSettledJob(stored.data?.settledJob), [stored.data]);
  const job = useQuery({ ...jobQueryOptions(jobId), initialData: kept, enabled: !stored.isPending });
  const current = job.data?.job;
  const document = stored.data ?? null;
  // A job's page leads to its review: the viewer and pdf.js load, and the stored document opens,
  // while the job and result are fetched.
  useEffect(preloadDocumentViewer, []);
  useOpenDocumentAhead(document?.file, document?.mimeType);
  // Kept once it can no longer change, as the job list keeps it, for the next opening.
  const settled = current && isJobSettled(current) ? current : null;
  useEffect(() => {
    if (settled && document && document.settledJob == null)
      updateJob(jobId, { settledJob: settled }).catch((error: unknown) =>
        console.warn('Could not keep the finished job in this browser', error),
      );
  }, [jobId, settled, document]);

  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold break-all">{document?.filename ?? current?.filename ?? 'Job'}</h1>
      <RateLimitNotice />
      {job.isPending && <Spinner label="Loading the job…" />}
      {job.isError && !current && (
        <ResultUnavailable
          jobId={jobId}
          what="job"
          error={job.error}
          onRetry={() => void job.refetch()}
          renderCopy={(result, notice) => (
            <Review jobId={jobId} result={result} document={document} notice={notice} />
          )}
        />
      )}
      {current && current.status !== 'Processed' && <JobStatus job={current} />}
      {/* A kept document's review is the queue's: this page goes there once the server has the result. */}
      {current?.status === 'Processed' && serverKept && (
        <Spinner label="The result is in: opening its review…" />
      )}
      {current?.status === 'Processed' &&
        !serverKept &&
        (current.result_url ? (
          <ProcessedJob jobId={jobId} resultUrl={current.result_url} document={document} />
        ) : (
          <ProblemAlert
            error={{ title: 'No result address', detail: 'The job is processed but carries no result_url.' }}
            action="This is the service's fault, not yours: report it with the job's id."
          />
        ))}
    </main>
  );
}

interface ReviewProps {
  jobId: string;
  document: StoredDocument | null;
}

function ProcessedJob({ jobId, resultUrl, document }: ReviewProps & { resultUrl: string }) {
  // A result kept with the document is shown at once, without a request: it never changes, and a
  // model that deletes it once fetched would answer 404 to a second request.
  const kept = useMemo(() => keptResult(document?.settledResult), [document]);
  const result = useQuery({ ...extractionResultQueryOptions(resultUrl), initialData: kept });
  // Kept with the document for the next opening (a processed job's result no longer changes, even
  // while its webhooks are still being delivered); one that no longer read is replaced.
  const fetched = kept ? undefined : result.data;
  useEffect(() => {
    if (fetched && document)
      updateJob(jobId, { settledResult: fetched }).catch((error: unknown) =>
        console.warn('Could not keep the result in this browser', error),
      );
  }, [jobId, fetched, document]);
  if (result.isPending) return <Spinner label="Loading the result…" />;
  if (result.isError) {
    return (
      <ResultUnavailable
        jobId={jobId}
        what="result"
        error={result.error}
        onRetry={() => void result.refetch()}
        renderCopy={(copy, notice) => (
          <Review jobId={jobId} result={copy} document={document} notice={notice} />
        )}
      />
    );
  }
  return <Review jobId={jobId} result={result.data} document={document} />;
}

/** The review, behind its own error boundary: a rendering bug shows a message, the draft stays stored. */
function Review({ document, ...props }: ReviewProps & Omit<Parameters<typeof ReviewView>[0], 'document'>) {
  // Picking reads the words of the file the app server kept when this browser sent it.
  const pageWords = useJobWords('v2', props.jobId);
  return (
    <ErrorBoundary>
      <ReviewView
        pageWords={pageWords}
        {...props}
        document={
          document && {
            file: document.file,
            filename: document.filename,
            mimeType: document.mimeType,
            size: document.size,
          }
        }
      />
    </ErrorBoundary>
  );
}
