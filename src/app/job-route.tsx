import { useQuery } from '@tanstack/react-query';
import { extractionResultQueryOptions, jobQueryOptions } from '../api/v2/queries';
import { ProblemAlert } from '../components/problem-alert';
import { Spinner } from '../components/ui/spinner';
import { JobStatus } from '../features/jobs/job-status';
import { ReviewView } from '../features/review/review-view';
import { documentStoreKeys, loadDocument } from '../lib/document-store';

/** One job: followed while it runs, then reviewed. */
export function JobRoute({ jobId }: { jobId: string }) {
  const job = useQuery(jobQueryOptions(jobId));
  const stored = useQuery({
    queryKey: documentStoreKeys.detail(jobId),
    queryFn: () => loadDocument(jobId),
    staleTime: Infinity,
  });
  const current = job.data?.job;

  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold break-all">
        {stored.data?.filename ?? current?.filename ?? 'Job'}
      </h1>
      {job.isPending && <Spinner label="Loading the job…" />}
      {job.isError && <ProblemAlert error={job.error} />}
      {current && current.status !== 'Processed' && <JobStatus job={current} />}
      {current?.status === 'Processed' &&
        (current.result_url ? (
          <ProcessedJob jobId={jobId} resultUrl={current.result_url} file={stored.data?.file ?? null} />
        ) : (
          <ProblemAlert
            error={{ title: 'No result address', detail: 'The job is processed but carries no result_url.' }}
          />
        ))}
    </main>
  );
}

function ProcessedJob({ jobId, resultUrl, file }: { jobId: string; resultUrl: string; file: Blob | null }) {
  const result = useQuery(extractionResultQueryOptions(resultUrl));
  if (result.isPending) return <Spinner label="Loading the result…" />;
  if (result.isError) return <ProblemAlert error={result.error} />;
  return <ReviewView jobId={jobId} result={result.data} file={file} />;
}
