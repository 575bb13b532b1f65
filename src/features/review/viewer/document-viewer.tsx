import { useCallback, useLayoutEffect, useMemo, useState, type Dispatch } from 'react';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { viewerActions, type ViewerAction, type ViewerState } from '../viewer-state';
import { confidencePaletteVars } from './confidence-legend';
import { DocumentSource } from './document-source';
import { regionsByPage } from './field-regions';
import { createHighlightStore, HighlightContext } from './highlight-store';
import { ViewerBody } from './viewer-body';
import { ViewerErrorBoundary } from './viewer-message';
import type { Rotation } from '@extraction-review/review-domain/viewer/geometry';

export interface DocumentViewerProps {
  /** The document as uploaded. */
  file: Blob;
  /** Its type, when known (the bytes are checked first). */
  mimeType?: string | undefined;
  leaves: FieldLeaf[];
  state: ViewerState;
  dispatch: Dispatch<ViewerAction>;
  /** The page count the service reported, shown while the document opens. */
  pageCount?: number | undefined;
  /** The clockwise turn that shows each stored page upright (v1 orientation); polygons are upright. */
  pageTurns?: readonly Rotation[] | undefined;
  /** Told when a page is drawn, the first time soon after the document opens. */
  onPageDrawn?: (() => void) | undefined;
}

/**
 * Every page of a PDF, a picture or a TIFF, with each field's polygons over it, thumbnails, zoom,
 * rotation and page moves, all driven by the review's viewer state. Lazy-loaded: pdf.js comes
 * with it.
 */
export default function DocumentViewer({
  file,
  mimeType,
  leaves,
  state,
  dispatch,
  pageCount,
  pageTurns,
  onPageDrawn,
}: DocumentViewerProps) {
  const [store] = useState(createHighlightStore);
  // Before paint, so that the highlight shows in the frame after the pointer moved.
  useLayoutEffect(() => store.set(state.hovered, state.selected), [store, state.hovered, state.selected]);
  const regionsOn = useMemo(() => regionsByPage(leaves), [leaves]);
  // From a polygon, the highlight is shown at once: the store's subscribers render synchronously,
  // within the pointer event, so the highlight is painted in that very frame. The review's state
  // follows at its own pace (React renders pointer-over updates in a later task) and sets the
  // store to the same value.
  const onFieldHover = useCallback(
    (path: string | null) => {
      store.set(path, store.current().selected);
      dispatch(viewerActions.hover(path));
    },
    [store, dispatch],
  );
  // A clicked polygon is in view already: select without scrolling.
  const onFieldSelect = useCallback(
    (path: string) => {
      store.set(store.current().hovered, path);
      dispatch(viewerActions.select(path, { reveal: false }));
    },
    [store, dispatch],
  );

  return (
    <HighlightContext value={store}>
      <div className="document-viewer" style={confidencePaletteVars}>
        <ViewerErrorBoundary>
          <DocumentSource file={file} mimeType={mimeType}>
            {(source) => (
              <ViewerBody
                source={source}
                expectedPageCount={pageCount}
                pageTurns={pageTurns}
                leaves={leaves}
                regionsOn={regionsOn}
                state={state}
                dispatch={dispatch}
                onFieldHover={onFieldHover}
                onFieldSelect={onFieldSelect}
                onPageDrawn={onPageDrawn}
              />
            )}
          </DocumentSource>
        </ViewerErrorBoundary>
      </div>
    </HighlightContext>
  );
}
