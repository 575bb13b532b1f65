import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../api/errors';
import { documentQueryOptions, v1JobQueryOptions } from '../api/v1/queries';
import type { V1Document } from '@extraction-review/contract/v1/schemas';
import { ProblemAlert } from '../components/problem-alert';
import { Spinner } from '../components/ui/spinner';
import { StatusBadge } from '../features/jobs/job-state-parts';
import { v1BadgeStatus, v1JobOutcome, type V1JobOutcome } from '../features/jobs/v1-job-state';
import { useJobWords } from '../features/review/pick/use-job-words';
import { ReviewView } from '../features/review/review-view';
import { useV1Thresholds } from '../features/review/v1/use-v1-thresholds';
import { v1DocumentToReview } from '@extraction-review/review-domain/v1/v1-to-review';
import { preloadDocumentViewer } from '../features/review/viewer/preload';
import { v1ProductLabel, v1Ref } from '../lib/v1-product';
import { documentStoreKeys, loadDocument, type StoredDocument, type StoredV1 } from '../lib/document-store';
import { ErrorBoundary } from './error-boundary';
import { useJobDocument } from './use-job-document';

/**
 * A v1 prediction sent from this browser: its queued job followed until it ends (async), or its
 * document (sync predict: the id is the document's), then reviewed. The product comes from the stored
 * record: v1 addresses jobs and documents under their product, and the URL holds the id only.
 */
export function V1JobRoute({ jobId }: { jobId: string }) {
  // Kept by the app server: its one review is the queue's (use-job-document.ts).
  const kept = useJobDocument('v1', jobId);
  if (kept.kind === 'checking' || kept.kind === 'opening') {
    return (
      <main className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-4 p-4">
        <h1 className="text-xl font-semibold break-all">v1 prediction</h1>
        <Spinner
          label={kept.kind === 'checking' ? 'Looking for the prediction’s document…' : 'Opening its review…'}
        />
      </main>
    );
  }
  return <FollowedPrediction jobId={jobId} serverKept={kept.kind === 'kept'} />;
}

function FollowedPrediction({ jobId, serverKept }: { jobId: string; serverKept: boolean }) {
  const stored = useQuery({
    queryKey: documentStoreKeys.detail(jobId),
    queryFn: () => loadDocument(jobId),
    staleTime: Infinity,
  });
  useEffect(preloadDocumentViewer, []);
  const record = stored.data;
  const product = record?.v1;

  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold break-all">{record?.filename ?? 'v1 prediction'}</h1>
      {stored.isPending && <Spinner label="Reading the prediction kept in this browser…" />}
      {stored.isError && (
        <ProblemAlert
          error={stored.error}
          action="This browser’s storage could not be read (private mode, or storage blocked)."
        />
      )}
      {stored.isSuccess && !product && (
        <p role="alert" className="rounded-md border border-amber-600 bg-amber-50 p-4 text-sm">
          This v1 prediction is not kept in this browser (sent elsewhere, or its storage was cleared): its
          product, needed to ask the service for it, is unknown.{' '}
          <Link href="/uploads" className="text-blue-800 underline">
            Back to the uploads
          </Link>
          .
        </p>
      )}
      {record && product && (
        <V1Prediction jobId={jobId} record={record} product={product} serverKept={serverKept} />
      )}
    </main>
  );
}

interface PredictionProps {
  jobId: string;
  record: StoredDocument;
  product: StoredV1;
  /** The app server kept it: its review is the queue's, opened once the result is in. */
  serverKept: boolean;
}

function V1Prediction({ jobId, record, product, serverKept }: PredictionProps) {
  const async = product.mode === 'async';
  const ref = v1Ref(product);
  const queue = useQuery({ ...v1JobQueryOptions(ref, jobId), enabled: async });
  const sync = useQuery({ ...documentQueryOptions(ref, jobId), enabled: !async });
  const query = async ? queue : sync;
  const outcome: V1JobOutcome = async
    ? v1JobOutcome(queue.data)
    : sync.data
      ? { kind: 'done', document: sync.data.document, job: sync.data.job }
      : { kind: 'pending' };
  const badge = v1BadgeStatus(outcome);
  const v1Status = outcome.kind === 'done' ? 'completed' : 'job' in outcome ? outcome.job.status : null;

  return (
    <>
      <section
        aria-label="v1 prediction"
        className="flex flex-col gap-3"
        data-v1-id={jobId}
        data-status={v1Status ?? 'unknown'}
      >
        <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-600">Product</dt>
          <dd className="font-mono text-xs">
            {v1ProductLabel(product)} ({async ? 'asynchronous' : 'synchronous'})
          </dd>
          <dt className="text-slate-600">{async ? 'Job' : 'Document'}</dt>
          <dd className="font-mono text-xs leading-5 break-all">{jobId}</dd>
          {badge && (
            <>
              <dt className="text-slate-600">Status</dt>
              <dd className="flex items-center gap-2">
                <StatusBadge status={badge} />
                <span className="text-xs text-slate-600">v1: {v1Status}</span>
              </dd>
            </>
          )}
        </dl>
        {query.isPending && <Spinner label="Asking the service…" />}
        {query.isError && (
          <ProblemAlert
            error={query.error}
            onRetry={() => void query.refetch()}
            action={
              query.error instanceof ApiError && query.error.status === 404
                ? 'The service does not know this prediction (deleted, another account, or another service).'
                : undefined
            }
          />
        )}
        {outcome.kind === 'running' && (
          <Spinner label={`Predicting (${outcome.job.status})… the page updates by itself.`} />
        )}
        {outcome.kind === 'failed' && (
          <ProblemAlert
            error={outcome.error}
            action="Check the document and the product it was sent to, then send it again from New extraction."
          />
        )}
        {outcome.kind === 'lost' && (
          <ProblemAlert
            error={{
              title: 'No document with the completed job',
              detail: 'The job is completed but its document did not come with it.',
            }}
            onRetry={() => void queue.refetch()}
          />
        )}
      </section>
      {outcome.kind === 'done' && serverKept && <Spinner label="The result is in: opening its review…" />}
      {outcome.kind === 'done' && !serverKept && (
        <V1Review jobId={jobId} document={outcome.document} record={record} product={product} />
      )}
    </>
  );
}

function V1Review({
  jobId,
  document,
  record,
  product,
}: {
  jobId: string;
  document: V1Document;
  record: StoredDocument;
  product: StoredV1;
}) {
  // The document in the review's shape, pages turned upright by their orientation; `offline`: a v1
  // document has no v2 model whose schema or RAG could be asked for; its feedback goes to v1 instead.
  const { ready, thresholds } = useV1Thresholds();
  const review = useMemo(
    () => v1DocumentToReview(document, { jobId, modelId: v1ProductLabel(product), thresholds }),
    [document, jobId, product, thresholds],
  );
  // Picking reads the words of the file the app server kept when this browser sent it (by the
  // queued job's id, or a synchronous prediction's document id: this page's id either way).
  const pageWords = useJobWords('v1', jobId);
  if (!ready) return <Spinner label="Loading the review settings…" />;
  return (
    <ErrorBoundary>
      <ReviewView
        jobId={jobId}
        result={review.response}
        pageTurns={review.pageRotations}
        document={{
          file: record.file,
          filename: record.filename,
          mimeType: record.mimeType,
          size: record.size,
        }}
        offline
        v1Feedback={{ documentId: document.id, product: v1ProductLabel(product) }}
        pageWords={pageWords}
      />
    </ErrorBoundary>
  );
}
