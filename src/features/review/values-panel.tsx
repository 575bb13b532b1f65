import { useId, type RefObject } from 'react';
import { FieldActionsContext, type FieldActions } from './fields/field-actions';
import { FieldList } from './fields/field-list';
import type { ReviewNode, SimpleNode } from '@extraction-review/review-domain/fields/review-tree';
import { HighlightContext, type HighlightStore } from './viewer/highlight-store';

interface Props {
  nodes: ReviewNode[];
  /** The values needing review, when the filter is on. */
  filtered: SimpleNode[] | null;
  onFilterChange: (on: boolean) => void;
  forReview: number;
  stillToReview: number;
  total: number;
  actions: FieldActions;
  /** Which field is hovered and selected, for the rows to read their own state. */
  highlight: HighlightStore;
  schemaNote: string | null;
  onHelp: () => void;
  rootRef: RefObject<HTMLDivElement | null>;
}

/** The values tab: the "needs review" filter, the counts, and the field list (or the filtered work list). */
export function ValuesPanel({
  nodes,
  filtered,
  onFilterChange,
  forReview,
  stillToReview,
  total,
  actions,
  highlight,
  schemaNote,
  onHelp,
  rootRef,
}: Props) {
  const filterId = useId();
  return (
    <div ref={rootRef} className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-900">
        <span className="flex items-center gap-2">
          <input
            id={filterId}
            type="checkbox"
            checked={filtered != null}
            onChange={(e) => onFilterChange(e.target.checked)}
            className="size-4 accent-blue-800"
          />
          <label htmlFor={filterId}>Needs review only (Medium, Low, unknown)</label>
        </span>
        <button
          type="button"
          onClick={onHelp}
          aria-haspopup="dialog"
          className="rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-900 hover:bg-slate-100"
        >
          Keyboard shortcuts <kbd className="font-mono">?</kbd>
        </button>
      </div>
      <p className="text-xs text-slate-700">
        {total} value{total === 1 ? '' : 's'} · {forReview} need{forReview === 1 ? 's' : ''} review ·{' '}
        {stillToReview} still to check. Press <kbd className="font-mono">n</kbd> for the next one.
      </p>
      {schemaNote && <p className="text-xs text-slate-700">{schemaNote}</p>}
      <FieldActionsContext value={actions}>
        <HighlightContext value={highlight}>
          <FieldList nodes={nodes} filtered={filtered} />
        </HighlightContext>
      </FieldActionsContext>
    </div>
  );
}
