import { useDeferredValue, useId, useMemo, useState } from 'react';
import type { RawText } from '@extraction-review/contract/v2/schemas';
import { findMatches, MAX_MATCHES } from './search-raw-text';
import { RawTextPage } from './raw-text-page';

interface Props {
  rawText: RawText | null;
  /** Show a page of the document (a match's page). */
  onGoToPage: (page: number) => void;
}

/**
 * The text the service read, page by page, with a search that marks every match and lists them; a
 * match in the list shows its page in the viewer and scrolls the text to it. Text only, never HTML.
 */
export function RawTextPanel({ rawText, onGoToPage }: Props) {
  const searchId = useId();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const [current, setCurrent] = useState<number | null>(null);
  const pages = useMemo(() => rawText?.pages.map((p) => p.content) ?? [], [rawText]);
  const matches = useMemo(() => findMatches(pages, deferred), [pages, deferred]);

  if (!rawText) {
    return (
      <p className="text-sm text-slate-700">
        No raw text: the <code>raw_text</code> option was off for this extraction. Turn it on when sending a
        document to read its text here.
      </p>
    );
  }

  const show = (i: number) => {
    const match = matches[i];
    if (!match) return;
    setCurrent(i);
    onGoToPage(match.page);
    document.getElementById(`${searchId}-m${i}`)?.scrollIntoView({ block: 'center' });
  };

  return (
    <div className="flex flex-col gap-3">
      <div>
        <label htmlFor={searchId} className="block text-sm font-medium text-slate-900">
          Search the raw text
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setCurrent(null);
          }}
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1 text-sm"
        />
        <p role="status" className="mt-1 text-xs text-slate-700">
          {deferred.trim() === ''
            ? `${pages.length} page${pages.length === 1 ? '' : 's'} of text.`
            : matches.length === 0
              ? 'No match.'
              : `${matches.length}${matches.length >= MAX_MATCHES ? '+' : ''} match${matches.length === 1 ? '' : 'es'}.`}
        </p>
      </div>
      {matches.length > 0 && (
        <ol aria-label="Matches" className="flex max-h-48 flex-col gap-0.5 overflow-auto text-xs">
          {matches.map((m, i) => (
            <li key={`${m.page}-${m.start}`}>
              <button
                type="button"
                onClick={() => show(i)}
                aria-current={current === i ? 'true' : undefined}
                className="w-full rounded px-1 py-0.5 text-left hover:bg-slate-100 aria-[current=true]:bg-amber-100"
              >
                <span className="font-medium">p. {m.page + 1}</span> …{m.before}
                <mark className="bg-yellow-200 text-slate-950">{m.text}</mark>
                {m.after}…
              </button>
            </li>
          ))}
        </ol>
      )}
      {pages.map((content, page) => (
        <RawTextPage
          key={page}
          page={page}
          content={content}
          matches={matches}
          current={current}
          idPrefix={searchId}
        />
      ))}
    </div>
  );
}
