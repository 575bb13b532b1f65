import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { EDITOR_KEYS, GRID_KEYS, SHORTCUTS } from './keymap';

interface Props {
  open: boolean;
  onClose: () => void;
}

/**
 * The keys of the review, in a modal `<dialog>`: the browser keeps the focus inside it (the rest of the
 * page is inert), Escape closes it, and the focus goes back where it was.
 */
export function ShortcutsDialog({ open, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby="shortcuts-title"
      onClose={() => {
        onClose();
        returnTo.current?.focus();
      }}
      onKeyDown={trapTab}
      className="m-auto max-h-[90vh] w-full max-w-lg overflow-y-auto rounded-lg border border-slate-300 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id="shortcuts-title" className="text-lg font-semibold">
        Keyboard shortcuts
      </h2>
      <p className="mt-1 text-sm text-slate-700">Anywhere in the review, except while typing in a value.</p>
      <KeyTable
        rows={SHORTCUTS.map((s) => ({ label: s.label, description: s.description }))}
        caption="Review"
      />
      <KeyTable rows={EDITOR_KEYS} caption="In a value's editor" />
      <KeyTable rows={GRID_KEYS} caption="In the line-item grid (Open as grid)" />
      <div className="mt-4 flex justify-end">
        <Button onClick={() => dialog.current?.close()} autoFocus>
          Close
        </Button>
      </div>
    </dialog>
  );
}

/**
 * Tab and Shift+Tab cycle inside the dialog. A modal `<dialog>` makes the page behind it inert, but
 * Tab from its last control would still leave for the browser's own interface.
 */
function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== 'Tab') return;
  const focusable = [
    ...event.currentTarget.querySelectorAll<HTMLElement>(
      'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])',
    ),
  ].filter((el) => !el.hasAttribute('disabled'));
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

function KeyTable({
  rows,
  caption,
}: {
  rows: readonly { label: string; description: string }[];
  caption: string;
}) {
  return (
    <table className="mt-3 w-full text-left text-sm">
      <caption className="text-left font-semibold">{caption}</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Keys</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label} className="border-t border-slate-100">
            <td className="py-1 pr-4 whitespace-nowrap">
              <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">
                {row.label}
              </kbd>
            </td>
            <td className="py-1">{row.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
