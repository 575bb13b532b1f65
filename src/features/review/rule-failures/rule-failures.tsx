import { useId, useState } from 'react';
import type { RuleFailure } from '@extraction-review/contract/review/model-settings';
import { useTitleOf } from '../field-titles';
import { ruleMessageInWords } from './rule-words';

/**
 * The business rules of the document's model that fail with the values as they are now: one line
 * with the count, above the values, that unfolds into the list on click (each failing value is
 * also marked in the list); the fields named by their titles, the rule by its id (as admins wrote it). Confirming with one still failing asks for a reason.
 */
export function RuleFailures({ failures }: { failures: readonly RuleFailure[] }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const titleOf = useTitleOf();
  if (failures.length === 0) return null;
  const count = failures.length === 1 ? '1 rule fails' : `${String(failures.length)} rules fail`;
  return (
    <section
      aria-label="Business rules"
      className="shrink-0 rounded-md border-l-4 border-red-700 bg-red-50 text-sm text-slate-900"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center gap-2 px-2 py-1 text-left hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        <span aria-hidden="true">{open ? '▾' : '▸'}</span>
        <span className="shrink-0 font-semibold whitespace-nowrap text-red-900">
          <span aria-hidden="true">⚠ </span>
          {count}
        </span>
        <span className="min-w-0 truncate text-xs text-slate-700">
          Correct the values, or confirm with a reason, which the history keeps.
        </span>
      </button>
      {open && (
        <ul id={listId} className="flex max-h-32 flex-col gap-1 overflow-y-auto px-3 pb-2">
          {failures.map((failure) => (
            <li key={failure.ruleId}>
              <span className="font-mono text-xs">{failure.ruleId}</span>:{' '}
              {ruleMessageInWords(failure, titleOf)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
