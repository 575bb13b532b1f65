import { useState } from 'react';

interface Paging {
  /** The view these pages belong to: another one starts again at page 1. */
  view: string;
  /** The cursor of the page shown (undefined: the first). */
  cursor: string | undefined;
  /** The cursors of the pages before it, in order. */
  previous: (string | undefined)[];
}

/**
 * Keyset paging remembered as a stack: the server only knows the way forward (`nextCursor`), so the
 * cursors already walked are kept for "Previous page". Changing `view` (the filters) starts over.
 */
export function useCursorStack(view: string) {
  const [paging, setPaging] = useState<Paging>({ view, cursor: undefined, previous: [] });
  const current: Paging = paging.view === view ? paging : { view, cursor: undefined, previous: [] };
  // Adjusting state to a new prop during render (react.dev, "You might not need an effect").
  if (current !== paging) setPaging(current);

  return {
    cursor: current.cursor,
    page: current.previous.length + 1,
    hasPrevious: current.previous.length > 0,
    next: (nextCursor: string) =>
      setPaging({ view, cursor: nextCursor, previous: [...current.previous, current.cursor] }),
    back: () => setPaging({ view, cursor: current.previous.at(-1), previous: current.previous.slice(0, -1) }),
  };
}
