import { startTransition, useCallback, useEffect, useMemo, useState } from 'react';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { viewerActions, type ViewerDispatch, type ViewerState } from '../viewer-state';
import type { Region } from './field-regions';
import type { Rotation } from '@extraction-review/review-domain/viewer/geometry';
import { withTurns } from './turned-bitmap';
import type { PageSource } from './page-source';
import { PageScroller } from './page-scroller';
import { ThumbnailStrip } from './thumbnail-strip';
import { ViewerToolbar } from './viewer-toolbar';

interface Props {
  /** Null while the document opens. */
  source: PageSource | null;
  expectedPageCount: number | undefined;
  pageTurns?: readonly Rotation[] | undefined;
  leaves: readonly FieldLeaf[];
  regionsOn: (page: number) => readonly Region[];
  state: ViewerState;
  dispatch: ViewerDispatch;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string) => void;
  /** Told when a page is drawn (the first one is page 1, or the page the review opens at). */
  onPageDrawn?: (() => void) | undefined;
}

/** The document: toolbar, thumbnails and pages; the frame is there while the document opens. */
export function ViewerBody(props: Props) {
  const { leaves, regionsOn, state, dispatch, onFieldHover, onFieldSelect, pageTurns } = props;
  // Laid out upright; one object per source and turns, as the pages are memoised on it.
  const source = useMemo(() => props.source && withTurns(props.source, pageTurns), [props.source, pageTurns]);
  const pageCount = source?.sizes.length ?? props.expectedPageCount ?? 0;
  const [firstDrawn, setFirstDrawn] = useState(false);
  const told = props.onPageDrawn;
  // Thumbnails once a page is drawn, in a transition: the drawn page commits first.
  const onPageDrawn = useCallback(() => {
    startTransition(() => setFirstDrawn(true));
    told?.();
  }, [told]);
  const onPageSelect = useCallback((page: number) => dispatch(viewerActions.goToPage(page)), [dispatch]);

  const opened = source?.sizes.length;
  useEffect(() => {
    if (opened !== undefined) dispatch({ type: 'documentLoaded', pageCount: opened });
  }, [dispatch, opened]);

  return (
    <>
      <ViewerToolbar page={state.page} pageCount={pageCount} zoom={state.zoom} dispatch={dispatch} />
      <div className="flex min-h-0 flex-1">
        {source && pageCount > 1 && (
          <ThumbnailStrip
            source={source}
            page={state.page}
            rotation={state.rotation}
            enabled={firstDrawn}
            onPageSelect={onPageSelect}
          />
        )}
        <PageScroller
          source={source}
          leaves={leaves}
          regionsOn={regionsOn}
          page={state.page}
          zoom={state.zoom}
          rotation={state.rotation}
          request={state.request}
          dispatch={dispatch}
          onFieldHover={onFieldHover}
          onFieldSelect={onFieldSelect}
          onPageDrawn={onPageDrawn}
        />
      </div>
    </>
  );
}
