import { useMemo } from 'react';
import type { SimpleNode } from '../fields/review-tree';
import { usePickContext, type PickContextValue } from './pick-context';
import { usePagesWords } from './use-page-words';
import { checkValueOnPage } from './value-on-page';

const CHECKED_TYPES = new Set(['number', 'date', 'text']);

/**
 * Under a value the operator typed: whether it is on the page, compared as the field's type
 * (value-on-page.ts), and if not the nearest values printed there, each a button that takes it (and
 * its region). Confirming anyway is allowed, and recorded. Picked values are not checked: they were
 * read on the page, so they are always found there (the check runs on them all the same: a picked
 * value typed over afterwards is checked as typed).
 */
export function PageCheckNote({ node }: { node: SimpleNode }) {
  const pick = usePickContext();
  const checked =
    pick != null &&
    pick.source != null &&
    node.edited &&
    CHECKED_TYPES.has(node.type) &&
    node.value !== null &&
    node.value !== '';
  // No query at all for the values not checked (and outside a review that picks).
  return checked ? <Check node={node} pick={pick} /> : null;
}

function Check({ node, pick }: { node: SimpleNode; pick: PickContextValue }) {
  const { pageInView } = pick;
  const pages = useMemo(() => {
    const at = [...new Set(node.locations.map((l) => l.page))];
    return at.length > 0 ? at.sort((a, b) => a - b) : [pageInView];
  }, [node.locations, pageInView]);
  const results = usePagesWords(pick.source, pages, pick.pageTurns);
  const ready = results.length > 0 && results.every((r) => r.isSuccess);
  // Computed at each render of an edited value: a few milliseconds for a page of words.
  const check = ready
    ? checkValueOnPage(
        node.value,
        node.type,
        pages.map((page, i) => ({ page, words: results[i]?.data ?? [] })),
        3,
        node.options,
      )
    : null;

  if (!check || check.found) return null;
  const where = pages.length === 1 ? `page ${(pages[0] ?? 0) + 1}` : 'its pages';
  if (node.confirmedNotOnPage === node.value) {
    return <p className="mt-1 text-xs text-slate-700">Confirmed although it is not on {where}.</p>;
  }
  return (
    <div role="alert" className="mt-1 rounded border border-amber-600 bg-amber-50 p-2 text-xs text-slate-900">
      <p>
        <span className="font-semibold">{String(node.value)}</span> is not on {where}.
        {check.candidates.length > 0 ? ' Nearest there:' : ''}
      </p>
      <div className="mt-1 flex flex-wrap gap-1">
        {check.candidates.map((c) => (
          <button
            key={`${c.page}-${c.text}`}
            type="button"
            onClick={() => pick.onChooseCandidate(node, c)}
            className="rounded border border-blue-800 bg-white px-2 py-0.5 font-mono text-blue-900 hover:bg-blue-50"
            aria-label={`Use ${c.text} (page ${c.page + 1}) for ${node.path}`}
          >
            {c.text}
          </button>
        ))}
        <button
          type="button"
          onClick={() => pick.onConfirmAnyway(node)}
          className="rounded px-2 py-0.5 text-slate-800 underline hover:bg-amber-100"
        >
          Confirm anyway
        </button>
      </div>
    </div>
  );
}
