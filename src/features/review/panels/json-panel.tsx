import { useMemo, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { copyText, selectContents } from './copy-text';

type CopyState = 'idle' | 'copied' | 'manual';

/**
 * The response as JSON, formatted, collapsible and copyable. It is the response as the app read it
 * (checked with the API's schema, keys the schema does not know left out).
 */
export function JsonPanel({ value }: { value: unknown }) {
  const json = useMemo(() => JSON.stringify(value, null, 2), [value]);
  const pre = useRef<HTMLPreElement>(null);
  const [copy, setCopy] = useState<CopyState>('idle');

  async function onCopy() {
    const copied = await copyText(json);
    if (!copied && pre.current) selectContents(pre.current);
    setCopy(copied ? 'copied' : 'manual');
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={() => void onCopy()}>
          Copy the JSON
        </Button>
        <span role="status" className="text-sm text-slate-800">
          {copy === 'copied' && 'Copied to the clipboard.'}
          {copy === 'manual' &&
            'The browser did not allow copying: the text is selected below, press Ctrl+C (⌘C on a Mac).'}
        </span>
      </div>
      <details open className="rounded border border-slate-200 bg-white">
        <summary className="cursor-pointer px-2 py-1 text-sm font-medium text-slate-900">
          Response JSON ({json.length.toLocaleString('en')} characters)
        </summary>
        <pre
          ref={pre}
          tabIndex={0}
          aria-label="Response JSON"
          className="max-h-[40rem] overflow-auto border-t border-slate-100 px-2 py-1 font-mono text-xs text-slate-900"
        >
          {json}
        </pre>
      </details>
    </div>
  );
}
