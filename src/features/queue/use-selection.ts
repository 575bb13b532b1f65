import { useCallback, useMemo, useState } from 'react';

/**
 * The documents an admin ticked on the page shown. The selection belongs to that page: it empties
 * when the page changes (another page, filter or order), so an action never reaches rows out of sight.
 */
export function useSelection(pageKey: string, idsOnPage: readonly string[]) {
  const [state, setState] = useState<{ key: string; ids: ReadonlySet<string> }>({
    key: pageKey,
    ids: new Set(),
  });
  // Of what was ticked, only what this page still shows (a row deleted or gone elsewhere drops out).
  const selected = useMemo(() => {
    if (state.key !== pageKey) return new Set<string>();
    return new Set(idsOnPage.filter((id) => state.ids.has(id)));
  }, [state, pageKey, idsOnPage]);

  const toggle = useCallback(
    (id: string) =>
      setState(({ key, ids }) => {
        const next = new Set(key === pageKey ? ids : []);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return { key: pageKey, ids: next };
      }),
    [pageKey],
  );
  const setAll = useCallback(
    (all: boolean) => setState({ key: pageKey, ids: new Set(all ? idsOnPage : []) }),
    [pageKey, idsOnPage],
  );
  const clear = useCallback(() => setState({ key: pageKey, ids: new Set() }), [pageKey]);
  return { selected, toggle, setAll, clear };
}

export type Selection = ReturnType<typeof useSelection>;
