import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';

interface Props {
  open: boolean;
  title: string;
  /** The reason's label. */
  label: string;
  /** A reason must be given (a rejection); else it may be left empty. */
  required: boolean;
  /**
   * The reasons the model offers (its settings): each a choice that fills the reason, which stays
   * editable, beside "Other…" (the operator's own words). None: only the text.
   */
  presets?: readonly string[] | undefined;
  submitLabel: string;
  /**
   * With a label, the dialog asks for a day too (a postponement's "until"): `onSubmit` gets that
   * day's local midnight as an ISO time, or undefined when none is chosen.
   */
  dateLabel?: string | undefined;
  onSubmit: (reason: string | undefined, until?: string | undefined) => void;
  onClose: () => void;
}

/** Tomorrow as a date input writes it (`YYYY-MM-DD`, local): the first day a postponement may end. */
function tomorrow(): string {
  const day = new Date();
  day.setDate(day.getDate() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** A date input's day (`YYYY-MM-DD`) as the ISO time of its local midnight. */
function localMidnight(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, d ?? 1).toISOString();
}

/**
 * Asks for a decision's reason in a modal `<dialog>`, as the shortcuts dialog does: the focus goes to
 * the first of the model's reasons (or to the text), stays inside (the page behind is inert), Escape
 * cancels, and the focus returns to the button that opened it. A reason chosen fills the text; what
 * is sent is the text, one string as before.
 */
export function ReasonDialog({
  open,
  title,
  label,
  required,
  presets = [],
  submitLabel,
  dateLabel,
  onSubmit,
  onClose,
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const [reason, setReason] = useState('');
  // "Other…" chosen with nothing written yet (once written, a text no preset has is "Other…").
  const [otherPicked, setOtherPicked] = useState(false);
  const [missing, setMissing] = useState(false);
  const chosen = presets.find((preset) => preset === reason.trim());
  const other = chosen === undefined && (otherPicked || reason.trim() !== '');
  const choices = useRef<HTMLFieldSetElement>(null);
  const [day, setDay] = useState('');
  const id = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      // The first choice when there are presets (arrows move between them), else the text.
      (choices.current?.querySelector<HTMLInputElement>('input[type="radio"]') ?? field.current)?.focus();
    } else if (!open && element.open) element.close();
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (required && text === '') {
      setMissing(true);
      field.current?.focus();
      return;
    }
    dialog.current?.close();
    onSubmit(text === '' ? undefined : text, day === '' ? undefined : localMidnight(day));
  };

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${id}-title`}
      onClose={() => {
        setReason('');
        setOtherPicked(false);
        setDay('');
        setMissing(false);
        onClose();
        returnTo.current?.focus();
      }}
      onKeyDown={trapTab}
      className="m-auto w-full max-w-lg rounded-lg border border-slate-300 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        {presets.length > 0 && (
          <fieldset ref={choices} className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-medium">Choose a reason</legend>
            <div className="flex max-h-56 flex-col gap-1 overflow-y-auto">
              {presets.map((preset) => (
                <label key={preset} className="flex items-start gap-2 text-sm">
                  <input
                    type="radio"
                    name={`${id}-preset`}
                    value={preset}
                    checked={chosen === preset}
                    onChange={() => {
                      setReason(preset);
                      setOtherPicked(false);
                      setMissing(false);
                    }}
                    className="mt-0.5 size-4 shrink-0 accent-blue-800"
                  />
                  <span>{preset}</span>
                </label>
              ))}
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name={`${id}-preset`}
                  value=""
                  checked={other}
                  onChange={() => {
                    if (chosen !== undefined) setReason('');
                    setOtherPicked(true);
                  }}
                  className="mt-0.5 size-4 shrink-0 accent-blue-800"
                />
                <span>Other… (write it below)</span>
              </label>
            </div>
          </fieldset>
        )}
        <label htmlFor={`${id}-reason`} className="text-sm font-medium">
          {label}
        </label>
        <textarea
          ref={field}
          id={`${id}-reason`}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setMissing(false);
          }}
          rows={presets.length > 0 ? 3 : 4}
          maxLength={2000}
          required={required}
          aria-invalid={missing || undefined}
          aria-describedby={missing ? `${id}-error` : undefined}
          className="rounded border border-slate-300 px-2 py-1 text-sm focus:outline-2 focus:outline-blue-700"
        />
        {missing && (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-800">
            {presets.length > 0
              ? 'Say why: choose a reason or write one. It is kept with the decision.'
              : 'Say why: the reason is kept with the decision.'}
          </p>
        )}
        {dateLabel !== undefined && (
          <>
            <label htmlFor={`${id}-until`} className="text-sm font-medium">
              {dateLabel}
            </label>
            <input
              id={`${id}-until`}
              type="date"
              value={day}
              min={tomorrow()}
              onChange={(e) => setDay(e.target.value)}
              className="w-48 rounded border border-slate-300 px-2 py-1 text-sm focus:outline-2 focus:outline-blue-700"
            />
          </>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </Button>
          <Button type="submit">{submitLabel}</Button>
        </div>
      </form>
    </dialog>
  );
}

/** Tab and Shift+Tab cycle inside the dialog (its last control would otherwise leave for the browser's). */
function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab') return;
  const focusable = [
    ...event.currentTarget.querySelectorAll<HTMLElement>('button, textarea, [href], input, select'),
  ].filter((el) => !el.hasAttribute('disabled') && tabStop(el));
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

/** A radio button is a Tab stop when checked, or when it is the first of a group with none checked. */
function tabStop(element: HTMLElement): boolean {
  if (!(element instanceof HTMLInputElement) || element.type !== 'radio') return true;
  if (element.checked) return true;
  const group = [...(element.form?.elements ?? [])].filter(
    (other): other is HTMLInputElement =>
      other instanceof HTMLInputElement && other.type === 'radio' && other.name === element.name,
  );
  return !group.some((other) => other.checked) && group[0] === element;
}
