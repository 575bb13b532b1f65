import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../../api/errors';
import { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import { ProblemAlert } from '../../components/problem-alert';
import { Button } from '../../components/ui/button';
import { draftStoreKeys, loadDraft } from '../../lib/draft-store';
import { downloadText } from './corrections/download';
import { formatDateTime } from '../../lib/format';

interface Props {
  jobId: string;
  /** What could not be read: the job itself, or its result. */
  what: 'job' | 'result';
  error: unknown;
  onRetry: () => void;
  /** Renders the review from the copy of the result kept with the draft. */
  renderCopy: (result: ExtractionResponse, notice: ReactNode) => ReactNode;
}

/**
 * The job or its result cannot be read: says why in words, offers to try again, and never loses the
 * operator's work: the draft (and the copy of the result kept with it) is still in this browser.
 */
export function ResultUnavailable({ jobId, what, error, onRetry, renderCopy }: Props) {
  const draft = useQuery({
    queryKey: draftStoreKeys.detail(jobId),
    queryFn: () => loadDraft(jobId),
    retry: false,
  });
  const [useCopy, setUseCopy] = useState(false);
  const copy = draft.data ? ExtractionResponse.safeParse(draft.data.result) : null;
  const gone = error instanceof ApiError && error.status === 404;

  if (useCopy && copy?.success) {
    const notice = (
      <p role="status" className="rounded border border-amber-600 bg-amber-50 p-2 text-sm text-slate-900">
        Shown from the copy kept with your corrections (saved {formatDateTime(draft.data?.updatedAt ?? '')}):
        the service could not give this {what} again. Export your corrections before clearing this browser's
        data.
      </p>
    );
    return renderCopy(copy.data, notice);
  }

  return (
    <div className="flex flex-col gap-3">
      <ProblemAlert error={error} onRetry={onRetry} action={gone ? goneHint(what) : undefined} />
      {copy?.success && (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-900">
          <p>This browser kept your corrections with a copy of the result.</p>
          <Button onClick={() => setUseCopy(true)}>Continue the review from the copy</Button>
        </div>
      )}
      {draft.data && !copy?.success && (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-900">
          <p>Your corrections for this job are still in this browser.</p>
          <Button
            variant="secondary"
            onClick={() =>
              downloadText(
                `job-${jobId}-draft.json`,
                `${JSON.stringify(draft.data, null, 2)}\n`,
                'application/json',
              )
            }
          >
            Download your corrections
          </Button>
        </div>
      )}
    </div>
  );
}

function goneHint(what: 'job' | 'result'): string {
  return what === 'result'
    ? 'The service no longer has this result. Some models delete a result as soon as it has been fetched once: it was shown earlier and kept in this tab only, so a reload (or another tab) asked for it again. Send the document for extraction again to get a new result.'
    : 'The service does not know this job: it may have been deleted, or the link is wrong. Start a new extraction from the start page.';
}
