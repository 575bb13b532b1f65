import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { reviewKeys } from '../../../api/keys';
import { Button } from '../../../components/ui/button';
import { ProblemAlert } from '../../../components/problem-alert';
import { Spinner } from '../../../components/ui/spinner';
import { serverWordsSource } from '../pick/words-sources';
import { ReviewView } from '../review-view';
import { RuleFailures } from '../rule-failures/rule-failures';
import { useRuleFailures } from '../rule-failures/use-rule-failures';
import { useUncheckedGate } from '../checks/use-unchecked-gate';
import { DecisionBar } from './decision-bar';
import type { HeldReviewProps } from './held-review';
import { HistoryPanel } from './history-panel';
import { useMoveOn } from './move-on';
import { isNotHolder, isStale, isWrongState } from './review-errors';
import { SaveStatus } from './save-status';
import { StaleAlert } from './stale-alert';
import { useCorrectionsSync } from './use-corrections-sync';
import { useDecisions } from './use-decisions';
import type { DraftSeed } from './use-draft-seed';
import { useLease } from './use-lease';
import { usePresetReasons } from './use-preset-reasons';
import { useNextDocumentAhead } from './use-next-ahead';

export const NO_FILE_MESSAGE =
  'The review store keeps no file for this document (it was sent by URL, or its file was removed), so only the values are shown.';
/** The page pane's words when the kept file could not be loaded (the problem is shown above it). */
export const FILE_FAILED_MESSAGE =
  'The page could not be loaded (see the problem above): only the values are shown.';

/** What the page pane says while there is no page to draw. */
export function documentMissingText(state: { loading: boolean; failed: boolean }): React.ReactNode {
  if (state.loading) return <Spinner label="Loading the document…" />;
  return state.failed ? FILE_FAILED_MESSAGE : NO_FILE_MESSAGE;
}

interface Props extends HeldReviewProps {
  draftKey: string;
  seed: DraftSeed;
}

/**
 * The review of a document the operator holds: every correction saved to the server as it is made
 * (and kept in this browser until then), the lease renewed while the page is open, the decisions.
 * "Take theirs" after a stale save starts the review again from the merged corrections.
 */
export function EditableReview(props: Props) {
  const { document, review, file, fileLoading, me, isAdmin, draftKey, seed, onLostHold, onNextFailed } =
    props;
  const [view, setView] = useState({ edits: seed.edits, generation: 0 });
  // The kept file's words, read by the app server: for picking values on the page.
  const pageWords = useMemo(() => serverWordsSource(document.id), [document.id]);
  const sync = useCorrectionsSync({
    documentId: document.id,
    me,
    draftKey,
    start: { version: seed.version, acked: seed.server },
    onLostHold,
  });
  useLease(document.id, onLostHold);
  // The document "Confirm and next", Reject and Postpone would move on to, made ready meanwhile.
  const ahead = useNextDocumentAhead({ current: document.id, enabled: true, ready: fileLoading !== true });
  const rules = useRuleFailures({
    apiVersion: document.apiVersion,
    model: document.model,
    fields: review.response.inference.result.fields,
    initial: seed.edits,
  });
  const unchecked = useUncheckedGate({
    apiVersion: document.apiVersion,
    model: document.model,
    fields: review.response.inference.result.fields,
    initial: seed.edits,
  });
  const presetReasons = usePresetReasons(document.apiVersion, document.model);
  const decisions = useDecisions({
    documentId: document.id,
    draftKey,
    flush: sync.flush,
    onRefused: sync.refuse,
    onNextFailed,
    ahead,
  });
  // A decision refused after the review had moved on to the next document shown ahead: back here,
  // it is handled as a refusal met here would have been (use-decisions.ts), and shown the same way.
  const moveOn = useMoveOn();
  const failed = moveOn.failed?.documentId === document.id ? moveOn.failed : null;
  const queryClient = useQueryClient();
  const handled = useRef<unknown>(null);
  const refuse = sync.refuse;
  useEffect(() => {
    if (failed === null || handled.current === failed) return;
    handled.current = failed;
    if (isStale(failed.error) || isNotHolder(failed.error)) refuse(failed.error);
    else if (isWrongState(failed.error))
      void queryClient.invalidateQueries({ queryKey: reviewKeys.document(document.id) });
  }, [failed, refuse, queryClient, document.id]);
  const takeTheirs = () => {
    const merged = sync.takeTheirs();
    if (merged) setView((v) => ({ edits: merged, generation: v.generation + 1 }));
  };
  const refusal = sync.status.kind === 'blocked' ? sync.status.error : null;

  return (
    <ReviewView
      key={view.generation}
      jobId={document.id}
      draftKey={draftKey}
      result={review.response}
      pageTurns={review.pageTurns}
      offline={document.apiVersion === 'v1'}
      // A v1 document: its feedback goes to the service from here, as from a job's review (and is
      // recorded in the document's history).
      v1Feedback={
        document.apiVersion === 'v1' && document.upstreamResultId !== null
          ? { documentId: document.upstreamResultId, product: document.model }
          : undefined
      }
      document={
        file && { file: file.file, filename: document.fileName, mimeType: file.mimeType, size: file.size }
      }
      documentMissing={documentMissingText({
        loading: fileLoading === true,
        failed: props.fileFailed === true,
      })}
      documentLoading={fileLoading}
      pageWords={pageWords}
      initialCorrections={view.edits}
      onCorrectionsChange={(edits) => {
        sync.update(edits);
        rules.onEdits(edits);
        unchecked.onEdits(edits);
      }}
      ruleMarks={rules.marks}
      notice={
        <>
          {isStale(refusal) &&
            (sync.conflict ? (
              <StaleAlert
                error={refusal}
                conflict={sync.conflict}
                onKeepMine={sync.keepMine}
                onTakeTheirs={takeTheirs}
              />
            ) : sync.rereadError != null ? (
              <ProblemAlert error={sync.rereadError} onRetry={sync.retry} />
            ) : (
              <Spinner label="The document changed: reading it again…" />
            ))}
          {refusal != null && !isStale(refusal) && !isNotHolder(refusal) && (
            <div className="flex max-h-40 shrink-0 flex-col gap-2 overflow-y-auto">
              <ProblemAlert
                error={refusal}
                action="Your corrections are kept in this browser, not saved on the server."
              />
              <Button variant="secondary" className="self-start" onClick={sync.retry}>
                Try saving again
              </Button>
            </div>
          )}
          <RuleFailures failures={rules.failures} />
        </>
      }
      status={<SaveStatus status={sync.status} />}
      tabs={[
        ...(props.adminTab ? [props.adminTab] : []),
        {
          id: 'history',
          label: 'History',
          content: <HistoryPanel documentId={document.id} isAdmin={isAdmin} />,
        },
      ]}
      footer={
        <DecisionBar
          onDecide={(request) => decisions.mutate(request)}
          busy={decisions.isPending}
          error={decisions.error ?? failed?.error}
          failures={rules.failures}
          gate={unchecked}
          reasons={presetReasons}
          confirmBlocked={
            props.fileFailed === true
              ? 'Confirming needs the page: the document could not be loaded (see above). Try again, or release it.'
              : undefined
          }
        />
      }
    />
  );
}
