import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { useTitleOf } from '../field-titles';

export interface UncheckedValue {
  path: string;
}

interface Props {
  /** The values still unchecked: the dialog is open while there are some to tell of. */
  values: readonly UncheckedValue[] | null;
  /** The model's gate is strict: confirming is not offered. */
  strict: boolean;
  onReview: () => void;
  onConfirmAnyway: () => void;
  onClose: () => void;
}

/** The most values named in the dialog; the count says how many there are. */
const LISTED = 6;

/**
 * "N values not checked: Review them / Confirm anyway", in a modal `<dialog>`: asked once before a
 * document is confirmed with values at Medium, Low or no confidence nobody checked. "Review them" has
 * the focus (an Enter pressed on through does not confirm); strict, it is the only way on. Escape
 * cancels, and the focus returns to what opened it.
 */
export function UncheckedDialog({ values, strict, onReview, onConfirmAnyway, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  // What to do once closed: the focus goes back only when the operator cancelled.
  const leaving = useRef<'cancel' | 'review' | 'confirm'>('cancel');
  const id = useId();
  // Named as their rows name them: the data schema's titles in context, else the paths made human.
  const titleOf = useTitleOf();
  const open = values !== null && values.length > 0;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      leaving.current = 'cancel';
      element.showModal();
      element.querySelector<HTMLButtonElement>('[data-review-them]')?.focus();
    } else if (!open && element.open) element.close();
  }, [open]);

  const close = (how: 'review' | 'confirm') => {
    leaving.current = how;
    dialog.current?.close();
  };

  const n = values?.length ?? 0;
  const listed = (values ?? []).slice(0, LISTED);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={() => {
        const how = leaving.current;
        onClose();
        if (how === 'review') onReview();
        else if (how === 'confirm') onConfirmAnyway();
        else returnTo.current?.focus();
      }}
      onKeyDown={trapTab}
      className="m-auto w-full max-w-lg rounded-lg border border-slate-300 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="flex flex-col gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {n === 1 ? '1 value not checked' : `${String(n)} values not checked`}
        </h2>
        <div id={`${id}-text`} className="flex flex-col gap-2 text-sm">
          <p>
            {n === 1 ? 'It was' : 'They were'} extracted at Medium, Low or no confidence, and nobody confirmed
            or corrected {n === 1 ? 'it' : 'them'}:
          </p>
          <ul className="list-disc pl-5">
            {listed.map((v) => (
              <li key={v.path} title={v.path}>
                {titleOf(v.path)}
              </li>
            ))}
            {n > listed.length && <li>and {String(n - listed.length)} more</li>}
          </ul>
          {strict && (
            <p className="font-medium text-amber-900">
              This model needs every such value checked before its documents are confirmed.
            </p>
          )}
        </div>
        <div className="flex justify-end gap-2">
          {!strict && (
            <Button variant="secondary" onClick={() => close('confirm')}>
              Confirm anyway
            </Button>
          )}
          <Button data-review-them onClick={() => close('review')}>
            Review them
          </Button>
        </div>
      </div>
    </dialog>
  );
}

/** Tab and Shift+Tab cycle inside the dialog. */
function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab') return;
  const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>('button')].filter(
    (el) => !el.hasAttribute('disabled'),
  );
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
