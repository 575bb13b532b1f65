import { useMemo } from 'react';
import type { SimpleNode } from '@extraction-review/review-domain/fields/review-tree';
import { usePickContext } from './pick-context';
import { usePagesWords } from './use-page-words';
import { armWarning, disarmWarning, isWarningArmed, useWarningArmed } from '../checks/armed-warnings';
import { checkValueOnPage, type Candidate } from './value-on-page';

/**
 * The types checked: what an operator types. A classification is chosen from the schema's list and a
 * boolean ticked: neither is typed, and their values are seldom printed as such (`credit card` for a
 * card slip), so a warning there would be noise.
 */
const CHECKED_TYPES = new Set(['number', 'date', 'text']);

export type PageCheckState =
  | { kind: 'unchecked' }
  /** Its page's words are still being read: known in a moment. */
  | { kind: 'pending' }
  | { kind: 'found' }
  | { kind: 'warned'; where: string; candidates: readonly Candidate[] }
  | { kind: 'confirmed'; where: string };

const UNCHECKED: PageCheckState = { kind: 'unchecked' };
const PENDING: PageCheckState = { kind: 'pending' };
const NO_PAGES: readonly number[] = [];

/**
 * Whether a value the operator typed is on the page, compared as the field's type (value-on-page.ts):
 * `warned` with the nearest values printed there, `confirmed` once confirmed although it is not.
 * A picked value is trusted while it reads as the words under the region it was picked from (it
 * never warns); typed over afterwards, it is checked as typed. Candidates near the field's label
 * (its title) come first. The page's words are asked for only for the values checked.
 */
export function usePageCheck(node: SimpleNode): PageCheckState {
  const pick = usePickContext();
  const checked =
    pick != null &&
    pick.source != null &&
    node.edited &&
    CHECKED_TYPES.has(node.type) &&
    node.value !== null &&
    node.value !== '';
  const pageInView = pick?.pageInView ?? 0;
  const pages = useMemo(() => {
    const at = [...new Set(node.locations.map((l) => l.page))];
    return at.length > 0 ? at.sort((a, b) => a - b) : [pageInView];
  }, [node.locations, pageInView]);
  // No query at all for the values not checked (most of a long table's cells).
  const results = usePagesWords(pick?.source ?? null, checked ? pages : NO_PAGES, pick?.pageTurns, checked);
  const ready = checked && results.length > 0 && results.every((r) => r.isSuccess);
  // Computed at each render of an edited value: a few milliseconds for a page of words.
  const check = ready
    ? checkValueOnPage(
        node.value,
        node.type,
        pages.map((page, i) => ({ page, words: results[i]?.data ?? [] })),
        3,
        node.options,
        { picked: node.picked ? node.locations : undefined, label: node.title },
      )
    : null;
  if (!check) return checked && results.some((r) => r.isPending) ? PENDING : UNCHECKED;
  if (check.found) return { kind: 'found' };
  const where = pages.length === 1 ? `page ${(pages[0] ?? 0) + 1}` : 'its pages';
  if (node.confirmedNotOnPage === node.value) return { kind: 'confirmed', where };
  return { kind: 'warned', where, candidates: check.candidates };
}

/**
 * What confirming a value does (Enter in its editor). A value warned as not on the page is not
 * taken by the first Enter: that one shows the warning (and says so), the second confirms anyway,
 * recorded so, as the note's button does. While its page's words are still read nothing is
 * confirmed (the check would come after). Any other value is confirmed as checked.
 */
export function useConfirmChecked(
  node: SimpleNode,
  state: PageCheckState,
  confirm: (path: string) => void,
  leave: (path: string) => void,
): () => void {
  const pick = usePickContext();
  return () => {
    if (state.kind === 'pending') return;
    if (state.kind === 'warned' && pick) {
      if (!isWarningArmed(node.path, node.value)) {
        armWarning(node.path, node.value);
        return;
      }
      disarmWarning(node.path);
      pick.onConfirmAnyway(node);
      leave(node.path);
    } else confirm(node.path);
  };
}

/**
 * Under a value the operator typed (or in its table cell, `compact`): when it is not on the page, the
 * nearest values printed there, each a button that takes it (and its region), and "Confirm anyway".
 */
export function PageCheckNote({
  node,
  state,
  compact = false,
}: {
  node: SimpleNode;
  state: PageCheckState;
  compact?: boolean;
}) {
  const pick = usePickContext();
  const armed = useWarningArmed(node.path, node.value);
  if (!pick || state.kind === 'unchecked' || state.kind === 'pending' || state.kind === 'found') return null;
  if (state.kind === 'confirmed') {
    return compact ? (
      <p className="mt-1 text-xs text-slate-700">Confirmed, not on {state.where}.</p>
    ) : (
      <p className="mt-1 text-xs text-slate-700">Confirmed although it is not on {state.where}.</p>
    );
  }
  const { candidates, where } = state;
  return (
    <div
      role="alert"
      className={`mt-1 rounded border border-amber-600 bg-amber-50 text-xs text-slate-900 ${compact ? 'min-w-40 p-1' : 'p-2'}`}
    >
      <p>
        <span aria-hidden="true">⚠ </span>
        <span className="font-semibold">{String(node.value)}</span> is not on {where}.
        {candidates.length > 0 ? ' Nearest there:' : ''}
      </p>
      {armed && (
        <p className="mt-1 font-semibold">
          Press Enter again to confirm it anyway, or choose a value printed there.
        </p>
      )}
      <div className="mt-1 flex flex-wrap gap-1">
        {candidates.map((c) => (
          <button
            key={`${c.page}-${c.text}`}
            type="button"
            onClick={() => pick.onChooseCandidate(node, c)}
            className="rounded border border-blue-800 bg-white px-2 py-0.5 font-mono text-blue-900 hover:bg-blue-50"
            aria-label={`Use ${c.text} (page ${c.page + 1}) for ${node.title}`}
          >
            {c.text}
          </button>
        ))}
        <button
          type="button"
          onClick={() => pick.onConfirmAnyway(node)}
          aria-label={`Confirm anyway: ${node.title}`}
          className="rounded px-2 py-0.5 text-slate-800 underline hover:bg-amber-100"
        >
          Confirm anyway
        </button>
      </div>
    </div>
  );
}
