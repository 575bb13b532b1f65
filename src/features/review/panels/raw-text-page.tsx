import { memo } from 'react';
import { splitAtMatches, type TextMatch } from './search-raw-text';

interface Props {
  page: number;
  content: string;
  /** Every match of the document; this page marks its own. */
  matches: readonly TextMatch[];
  current: number | null;
  idPrefix: string;
}

/** One page of raw text, its matches marked. React renders the pieces as text nodes: no HTML is parsed. */
export const RawTextPage = memo(function RawTextPage({ page, content, matches, current, idPrefix }: Props) {
  const offset = matches.findIndex((m) => m.page === page);
  const own = matches.filter((m) => m.page === page);
  const pieces = splitAtMatches(content, own);
  return (
    <section aria-label={`Text of page ${page + 1}`} className="rounded border border-slate-200 bg-white">
      <h2 className="border-b border-slate-100 px-2 py-1 text-xs font-semibold text-slate-800">
        Page {page + 1}
      </h2>
      <pre
        className="max-h-[32rem] overflow-auto px-2 py-1 font-mono text-xs whitespace-pre-wrap text-slate-900"
        tabIndex={0}
      >
        {content === '' && <span className="text-slate-700">(no text on this page)</span>}
        {pieces.map((piece, i) =>
          piece.match == null ? (
            piece.text
          ) : (
            <mark
              key={i}
              id={`${idPrefix}-m${offset + piece.match}`}
              className={
                current === offset + piece.match
                  ? 'bg-amber-400 text-slate-950'
                  : 'bg-yellow-200 text-slate-950'
              }
            >
              {piece.text}
            </mark>
          ),
        )}
      </pre>
    </section>
  );
});
