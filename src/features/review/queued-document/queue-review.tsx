import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { reviewKeys } from '../../../api/keys';
import type { OperatorView, ReviewDocument } from '@extraction-review/contract/review/schemas';
import { ProblemAlert } from '../../../components/problem-alert';
import { Spinner } from '../../../components/ui/spinner';
import type { ReviewTab } from '../panels/review-panels';
import type { TabSpec } from '../panels/review-tabs';
import { ReviewView } from '../review-view';
import { draftFromServer } from '@extraction-review/review-domain/queue/corrections-sync';
import { DeleteDocumentControl } from './delete-document-control';
import { DocumentStatus } from './document-status';
import { documentMissingText } from './editable-review';
import { HeldReview, queueDraftKey } from './held-review';
import { DecisionBar } from './decision-bar';
import { HistoryDisclosure, HistoryPanel } from './history-panel';
import { moveOnStore, useMoveOn } from './move-on';
import { PriorityControl } from './priority-control';
import { ReassignControl } from './reassign-control';
import { useDocumentActions } from './use-document-actions';
import { useDocumentFile } from './use-document-file';
import { useQueueResult } from './use-queue-result';

interface Props {
  document: ReviewDocument;
  operator: OperatorView;
}

/**
 * A queued document by its state: the full review when the operator holds it; otherwise the values
 * read-only beside where the document stands (waiting, held by someone, decided), with what may be
 * done about it. A hold lost on the way leaves the local draft in place and the review read-only.
 *
 * Opened ahead of its take by a decision on the one before (move-on.ts): drawn at once, read-only,
 * "Taking…" on the decision bar, until the take gives it (then editable) or another (then that one
 * is opened instead, and said so on it).
 */
export function QueueReview({ document, operator }: Props) {
  const queryClient = useQueryClient();
  const [lost, setLost] = useState<{ error: unknown } | null>(null);
  const [nextFailed, setNextFailed] = useState<{ error: unknown } | null>(null);
  const { take, reopen } = useDocumentActions(document.id, () => setLost(null));
  const result = useQueueResult(document);
  // A file the model's retention rule removed is not asked for: the page says so instead.
  const removed = document.fileRemovedAt ?? null;
  const file = useDocumentFile(document.id, result?.ok === true && removed === null);
  const shown = useMemo(() => draftFromServer(document.corrections), [document.corrections]);
  const onLostHold = useCallback(
    (error: unknown) => {
      setLost({ error });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.document(document.id) });
    },
    [queryClient, document.id],
  );

  const isAdmin = operator.role === 'admin';
  const editable = document.state === 'in_review' && document.holder?.id === operator.id && lost === null;
  const moveOn = useMoveOn();
  const taking = moveOn.taking === document.id && !editable;
  // Opened ahead of its take: the same drawn review stays while the draft is read, once taken.
  const [cameAhead] = useState(taking);
  const takeFailed = !editable && moveOn.takeFailed?.documentId === document.id ? moveOn.takeFailed : null;
  const notice = moveOn.notice?.documentId === document.id ? moveOn.notice.text : null;
  useEffect(() => {
    // Held now: the move on that opened it is over.
    if (editable && moveOnStore.get().taking === document.id) moveOnStore.set({ taking: null });
  }, [editable, document.id]);
  const stored = file.data && {
    file: file.data.file,
    filename: document.fileName,
    mimeType: file.data.mimeType,
    size: file.data.size,
  };

  // An admin's controls: a tab of the review when there is one (they never push the values down).
  const adminControls = isAdmin && (
    <>
      {['to_review', 'postponed', 'processing'].includes(document.state) && (
        <PriorityControl document={document} />
      )}
      {['to_review', 'postponed', 'in_review'].includes(document.state) && (
        <ReassignControl document={document} />
      )}
      <DeleteDocumentControl document={document} />
    </>
  );
  const adminTab: TabSpec<ReviewTab> | undefined = adminControls
    ? {
        id: 'admin',
        label: 'Admin',
        content: (
          <section aria-label="Admin" className="flex flex-col gap-6">
            {adminControls}
          </section>
        ),
      }
    : undefined;

  const historyTab: TabSpec<ReviewTab> = {
    id: 'history',
    label: 'History',
    content: <HistoryPanel documentId={document.id} isAdmin={isAdmin} />,
  };
  const readOnlyReview = (footer?: React.ReactNode) =>
    result?.ok && (
      <ReviewView
        jobId={document.id}
        draftKey={queueDraftKey(document.id)}
        result={result.review.response}
        pageTurns={result.review.pageTurns}
        offline={document.apiVersion === 'v1'}
        document={stored ?? null}
        documentMissing={
          removed !== null
            ? `The file was removed on ${formatDay(removed)} by the retention rule.`
            : documentMissingText({ loading: file.isPending, failed: file.isError })
        }
        documentLoading={removed === null && file.isPending}
        initialCorrections={shown}
        readOnly
        footer={footer}
        tabs={[...(adminTab ? [adminTab] : []), historyTab]}
      />
    );
  // No edit without the lease: the decisions wait, quietly, for the take.
  const aheadView = readOnlyReview(
    <DecisionBar onDecide={() => undefined} busy error={null} working="Taking this document…" />,
  );

  return (
    <>
      {!editable && !taking && (
        <DocumentStatus document={document} me={operator.id} isAdmin={isAdmin} take={take} reopen={reopen} />
      )}
      {notice && (
        <p
          role="status"
          className="rounded border border-blue-300 bg-blue-50 px-3 py-1.5 text-sm text-slate-900"
        >
          {notice}
        </p>
      )}
      {takeFailed && (
        <ProblemAlert
          error={takeFailed.error}
          action="The document before is decided, but this one could not be taken for you: take it here, or start again from the queue."
        />
      )}
      {adminControls && !result?.ok && (
        <section
          aria-label="Admin"
          className="flex flex-wrap gap-6 rounded-md border border-slate-300 bg-white p-3"
        >
          {adminControls}
        </section>
      )}
      {lost && (
        <ProblemAlert
          error={lost.error}
          action="You no longer hold this document, so the review is read-only. Your corrections are kept in this browser: take the document again to carry on, and they are sent then."
        />
      )}
      {nextFailed && (
        <ProblemAlert
          error={nextFailed.error}
          action="The document is decided, but the next one could not be taken: start again from the queue."
        />
      )}
      {result && !result.ok && (
        <ProblemAlert
          error={result.problem}
          action="This is the upstream's answer as stored: report it with the document's id."
        />
      )}
      {removed !== null && <FileRemovedNotice at={removed} />}
      {result?.ok && removed === null && file.isError && (
        <ProblemAlert
          error={file.error}
          onRetry={() => void file.refetch()}
          action="The values are shown without the page."
        />
      )}
      {/* The values are drawn while the file downloads: only the page waits for it. */}
      {result?.ok &&
        (editable || taking ? (
          <HeldReview
            document={document}
            review={result.review}
            file={file.data ?? null}
            fileLoading={file.isPending}
            fileFailed={file.isError}
            me={operator.id}
            isAdmin={isAdmin}
            onLostHold={onLostHold}
            onNextFailed={(error) => setNextFailed({ error })}
            adminTab={adminTab}
            taking={taking}
            aheadView={taking || cameAhead ? aheadView : undefined}
          />
        ) : (
          readOnlyReview()
        ))}
      {!result && document.result !== null && <Spinner label="Loading the review settings…" />}
      {!result && (document.state === 'processing' || document.state === 'failed') && (
        <HistoryDisclosure documentId={document.id} isAdmin={isAdmin} />
      )}
    </>
  );
}

const formatDay = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/** A decided document whose file its model's retention rule removed: the values stay, the page is gone. */
function FileRemovedNotice({ at }: { at: string }) {
  return (
    <p role="status" className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800">
      The file was removed on <time dateTime={at}>{formatDay(at)}</time> by the retention rule of this model.
      The values, corrections and history stay.
    </p>
  );
}
