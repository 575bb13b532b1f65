import { useCallback, useLayoutEffect, useState } from 'react';
import { firstPageOf, type FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { createHighlightStore } from './viewer/highlight-store';
import { viewerActions, type ViewerDispatch, type ViewerState } from './viewer-state';

/**
 * The selection as the values list uses it: `select` tells the viewer the field's page (it then shows
 * the polygon), and a highlight store lets each row read whether it is hovered or selected without
 * the whole list re-rendering (the viewer does the same for its polygons).
 */
export function useReviewSelection(viewer: ViewerState, dispatchViewer: ViewerDispatch, leaves: FieldLeaf[]) {
  const [highlight] = useState(createHighlightStore);
  // Before paint, as the viewer does: a hovered polygon's row lights up in the same frame.
  useLayoutEffect(
    () => highlight.set(viewer.hovered, viewer.selected),
    [highlight, viewer.hovered, viewer.selected],
  );

  const select = useCallback(
    (path: string | null) => {
      const leaf = path == null ? undefined : leaves.find((l) => l.path === path);
      const page = leaf ? (firstPageOf(leaf) ?? undefined) : undefined;
      dispatchViewer(viewerActions.select(path, { page }));
    },
    [leaves, dispatchViewer],
  );
  return { highlight, select };
}
