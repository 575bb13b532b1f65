import { useState, type ReactNode } from 'react';
import { NetworkError } from '../../../api/errors';
import type { PresetReasons, RuleFailure } from '@extraction-review/contract/review/model-settings';
import { ProblemAlert } from '../../../components/problem-alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ReasonDialog } from './reason-dialog';
import { useConfirmShortcut } from './use-confirm-shortcut';
import { NotSavedError, type DecisionRequest } from './use-decisions';

interface Props {
  onDecide: (request: DecisionRequest) => void;
  busy: boolean;
  error: unknown;
  /** The business rules failing now: confirming asks why (the override reason). */
  failures?: readonly RuleFailure[] | undefined;
  /**
   * Why confirming is not possible now (the document's page could not be loaded): the confirm
   * buttons and Ctrl+Enter are off, and this is said beside them. Reject, postpone, release stay.
   */
  confirmBlocked?: string | undefined;
  /**
   * Asked before every confirmation (the buttons and Ctrl+Enter alike): the unchecked-values gate
   * (checks/use-unchecked-gate.tsx), whose question it renders. Without it, confirming goes on.
   */
  gate?: { guard: (proceed: (uncheckedConfirmed?: number) => void) => void; dialog: ReactNode } | undefined;
  /** The reasons the model offers for each decision (its settings), as choices beside the text. */
  reasons?: PresetReasons | undefined;
  /** Said while `busy` instead of the decision under way (the document is still being taken). */
  working?: string | undefined;
}

const WORKING: Record<DecisionRequest['kind'], string> = {
  confirm: 'Saving and confirming…',
  reject: 'Saving and rejecting…',
  postpone: 'Saving and postponing…',
  release: 'Saving and releasing…',
};

/**
 * The decisions on the document held: confirm (and take the next, Ctrl+Enter), reject or postpone
 * with a reason, or release it undecided. A refusal is shown as the server said it; the corrections
 * stay, in this browser and on the server as far as it took them.
 */
export function DecisionBar({
  onDecide,
  busy,
  error,
  failures = [],
  confirmBlocked,
  gate,
  reasons,
  working,
}: Props) {
  const [asking, setAsking] = useState<'reject' | 'postpone' | 'override' | null>(null);
  // Which confirmation the override reason is for: "and next" or not, and the unchecked values told of.
  const [confirmNext, setConfirmNext] = useState(true);
  const [uncheckedConfirmed, setUncheckedConfirmed] = useState<number | undefined>(undefined);
  const [last, setLast] = useState<DecisionRequest['kind']>('confirm');
  const decide = (request: DecisionRequest) => {
    if (busy) return;
    setLast(request.kind);
    onDecide(request);
  };
  const confirmChecked = (next: boolean, unchecked?: number) => {
    if (failures.length === 0) return decide({ kind: 'confirm', next, uncheckedConfirmed: unchecked });
    if (busy) return;
    setConfirmNext(next);
    setUncheckedConfirmed(unchecked);
    setAsking('override');
  };
  // The unchecked-values gate first (it asks once, or lets through), then as before.
  const confirm = (next: boolean) => {
    if (confirmBlocked !== undefined || busy) return;
    if (gate) gate.guard((unchecked) => confirmChecked(next, unchecked));
    else confirmChecked(next);
  };
  useConfirmShortcut(() => confirm(true), asking === null && confirmBlocked === undefined);

  return (
    <section
      aria-label="Decision"
      className="flex flex-col gap-2 rounded-md border border-slate-300 bg-white p-3"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Button
          onClick={() => confirm(true)}
          disabled={busy || confirmBlocked !== undefined}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          aria-haspopup={failures.length > 0 ? 'dialog' : undefined}
        >
          Confirm and next
          <kbd
            aria-hidden="true"
            className="rounded border border-blue-300 px-1 font-mono text-xs font-normal"
          >
            Ctrl+Enter
          </kbd>
        </Button>
        <Button
          variant="secondary"
          onClick={() => confirm(false)}
          disabled={busy || confirmBlocked !== undefined}
          aria-haspopup={failures.length > 0 ? 'dialog' : undefined}
        >
          Confirm{failures.length > 0 ? '…' : ''}
        </Button>
        <Button
          variant="secondary"
          aria-haspopup="dialog"
          onClick={() => setAsking('reject')}
          disabled={busy}
        >
          Reject…
        </Button>
        <Button
          variant="secondary"
          aria-haspopup="dialog"
          onClick={() => setAsking('postpone')}
          disabled={busy}
        >
          Postpone…
        </Button>
        <Button variant="ghost" onClick={() => decide({ kind: 'release' })} disabled={busy}>
          Release
        </Button>
      </div>
      {confirmBlocked !== undefined && (
        <p role="status" className="text-sm text-amber-800">
          {confirmBlocked}
        </p>
      )}
      {busy && <Spinner label={working ?? WORKING[last]} />}
      {error != null && <DecisionProblem error={error} />}
      <ReasonDialog
        open={asking === 'reject'}
        title="Reject this document"
        label="Why is it rejected? (required)"
        required
        presets={reasons?.reject}
        submitLabel="Reject"
        onSubmit={(reason) => decide({ kind: 'reject', reason: reason ?? '' })}
        onClose={() => setAsking(null)}
      />
      <ReasonDialog
        open={asking === 'override'}
        title={failures.length === 1 ? 'Confirm although a rule fails' : 'Confirm although rules fail'}
        label={`Why confirm although ${failures.map((f) => f.ruleId).join(', ')} ${failures.length === 1 ? 'fails' : 'fail'}? (required, kept in the history)`}
        required
        presets={reasons?.override}
        submitLabel="Confirm anyway"
        onSubmit={(reason) =>
          decide({ kind: 'confirm', next: confirmNext, overrideReason: reason ?? '', uncheckedConfirmed })
        }
        onClose={() => setAsking(null)}
      />
      {gate?.dialog}
      <ReasonDialog
        open={asking === 'postpone'}
        title="Postpone this document"
        label="Why is it postponed? (optional)"
        required={false}
        presets={reasons?.postpone}
        dateLabel="Back in the queue on (optional: else when someone takes it)"
        submitLabel="Postpone"
        onSubmit={(reason, until) => decide({ kind: 'postpone', reason, until })}
        onClose={() => setAsking(null)}
      />
    </section>
  );
}

function DecisionProblem({ error }: { error: unknown }) {
  if (error instanceof NotSavedError) {
    return (
      <ProblemAlert
        error={error.cause}
        action={
          error.cause instanceof NetworkError
            ? 'Nothing was decided: your corrections could not all be saved, the server cannot be reached. They are kept in this browser and sent when it answers; then decide again.'
            : 'Nothing was decided: your corrections are not all saved (see above). They are kept in this browser.'
        }
      />
    );
  }
  return <ProblemAlert error={error} action="Nothing was decided. Your corrections are kept." />;
}
