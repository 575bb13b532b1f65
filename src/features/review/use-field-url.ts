import { useEffect, useRef } from 'react';
import { useSearchParams } from 'wouter';

export const FIELD_PARAM = 'field';

/** The field named in the URL (`?field=line_items[1].description`), for the review's first selection. */
export function useFieldFromUrl(): string | null {
  const [params] = useSearchParams();
  return params.get(FIELD_PARAM);
}

/**
 * Keeps the URL's `?field=` on the selected field (replacing the history entry: moving between fields is
 * not navigation), and follows the URL when it changes on its own (back and forward, a link).
 */
export function useFieldUrlSync(selected: string | null, onUrlChange: (path: string | null) => void): void {
  const [params, setParams] = useSearchParams();
  const inUrl = params.get(FIELD_PARAM);
  const written = useRef(inUrl);
  const follow = useRef(onUrlChange);
  useEffect(() => {
    follow.current = onUrlChange;
  });

  useEffect(() => {
    if (selected === written.current) return;
    written.current = selected;
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (selected) next.set(FIELD_PARAM, selected);
        else next.delete(FIELD_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [selected, setParams]);

  useEffect(() => {
    if (inUrl === written.current) return;
    written.current = inUrl;
    follow.current(inUrl);
  }, [inUrl]);
}
