import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { ProblemAlert } from '../components/problem-alert';
import { Spinner } from '../components/ui/spinner';
import { ReviewView } from '../features/review/review-view';
import { useV1Thresholds } from '../features/review/v1/use-v1-thresholds';
import { v1DocumentToReview } from '@extraction-review/review-domain/v1/v1-to-review';
import { OpenSavedForm } from '../features/saved/open-saved-form';
import { parseSavedResult } from '../features/saved/parse-saved-result';
import { loadSavedResult, savedResultKeys } from '../features/saved/saved-result-store';
import { ErrorBoundary } from './error-boundary';

/** Open a document with a result saved for it, without any request to a service. */
export function OpenSavedRoute() {
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Open a saved result</h1>
        <p className="mt-1 text-sm text-slate-600">
          Inspect a result from your own logs on its document, in the same review: nothing is sent to any
          service. Corrections are kept in this browser and can be exported.
        </p>
      </div>
      <OpenSavedForm />
    </main>
  );
}

/** A saved result opened earlier, read back from this browser. */
export function SavedRoute({ savedKey }: { savedKey: string }) {
  const saved = useQuery({
    queryKey: savedResultKeys.detail(savedKey),
    queryFn: () => loadSavedResult(savedKey),
    staleTime: Infinity,
  });
  const parsed = useMemo(() => (saved.data ? parseSavedResult(saved.data.resultText) : null), [saved.data]);
  // A v1 document is shown in the same review: fields in the v2 shape, polygons upright, each page
  // turned upright by its orientation.
  const { ready: thresholdsKnown, thresholds } = useV1Thresholds();
  const review = useMemo(() => {
    if (!parsed?.ok) return null;
    const { content } = parsed;
    if (content.version === 'v2') return { response: content.response, pageTurns: undefined };
    if (!thresholdsKnown) return null;
    const { response, pageRotations } = v1DocumentToReview(content.document, { thresholds });
    return { response, pageTurns: pageRotations };
  }, [parsed, thresholdsKnown, thresholds]);

  return (
    <main className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-4 p-4">
      <h1 className="text-xl font-semibold break-all">{saved.data?.filename ?? 'Saved result'}</h1>
      {saved.isPending && <Spinner label="Reading the saved result…" />}
      {saved.isError && (
        <ProblemAlert
          error={saved.error}
          action="This browser’s storage could not be read (private mode, or storage blocked)."
        />
      )}
      {saved.isSuccess && !saved.data && (
        <p role="alert" className="rounded-md border border-amber-600 bg-amber-50 p-4 text-sm">
          This saved result is not in this browser (its storage was cleared, or it was opened elsewhere).{' '}
          <Link href="/open" className="text-blue-800 underline">
            Open the files again
          </Link>
          .
        </p>
      )}
      {parsed && !parsed.ok && (
        <ProblemAlert
          error={{
            title: parsed.title,
            detail: parsed.detail,
            errors: parsed.issues.map((i) => ({ pointer: i.pointer, detail: i.message })),
          }}
          action="Open the files again with a result this app can read."
        />
      )}
      {saved.data && review && (
        <ErrorBoundary>
          <ReviewView
            jobId={`saved:${savedKey}`}
            result={review.response}
            pageTurns={review.pageTurns}
            document={{
              file: saved.data.file,
              filename: saved.data.filename,
              mimeType: saved.data.mimeType,
              size: saved.data.file.size,
            }}
            notice={<SavedNotice />}
            offline
          />
        </ErrorBoundary>
      )}
    </main>
  );
}

function SavedNotice() {
  return (
    <p className="rounded-md border border-slate-300 bg-slate-50 p-2 text-sm text-slate-800">
      Opened from saved files: nothing is sent to a service. Your corrections are kept in this browser; export
      them as JSON or CSV.
    </p>
  );
}
