import {
  memo,
  useCallback,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { clampZoom, viewerActions, type ViewerDispatch, type ViewRequest } from '../viewer-state';
import { firstLocation, type Region } from './field-regions';
import {
  anchoredScroll,
  layoutPages,
  pageInView,
  pagesInWindow,
  pageTopScroll,
  polygonContentBox,
  revealScroll,
  zoomForWheel,
  type PageLayout,
  type Point,
  type Rotation,
} from '@extraction-review/review-domain/viewer/geometry';
import type { PageSource } from './page-source';
import { PageShell } from './page-shell';
import { useDragPan } from './use-drag-pan';
import { useElementSize, useSettled } from './use-element-size';

const GAP = 16;
const PADDING = 16;
/** Room kept round a field brought into view, in pixels. */
const REVEAL_MARGIN = 48;

interface Props {
  /** Null while the document opens: the scroll box is laid out and measured meanwhile. */
  source: PageSource | null;
  leaves: readonly FieldLeaf[];
  regionsOn: (page: number) => readonly Region[];
  page: number;
  zoom: number;
  rotation: Rotation;
  request: ViewRequest | null;
  dispatch: ViewerDispatch;
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string) => void;
  onPageDrawn: (index: number) => void;
}

/**
 * The scrolled pages. Every page has a slot of its size from the start (so the scroll bar and
 * page jumps are right at once), but only the pages in and near the viewport are drawn. Layout
 * changes (zoom, rotation, resize, pages measured) keep the point under the pointer, or the
 * viewport's centre, in place; page and field requests from the state are carried out here.
 */
export const PageScroller = memo(function PageScroller(props: Props) {
  const { source, page, zoom, rotation, request, dispatch } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // Measured again before paint when the document opens: the thumbnail column appears beside it then.
  const viewport = useElementSize(scroller, source);
  const [scroll, setScroll] = useState({ left: 0, top: 0 });
  // Where a ctrl-wheel zoom was aimed (viewport pixels), for the zoom it asked for.
  const wheelAnchor = useRef<{ zoom: number; point: Point } | null>(null);
  const previousLayout = useRef<PageLayout | null>(null);
  // The offset a request scrolled to: that scroll does not report a page of its own.
  const requested = useRef<number | null>(null);
  useDragPan(scroller);

  // Until a first page is drawn, only the pages in sight are drawn: page 1 comes first.
  const [warm, setWarm] = useState(false);
  const onPageDrawn = props.onPageDrawn;
  const onDrawn = useCallback(
    (index: number) => {
      setWarm(true);
      onPageDrawn(index);
    },
    [onPageDrawn],
  );
  const layout = useMemo(
    () =>
      viewport &&
      source &&
      layoutPages({
        sizes: source.sizes,
        fitWidth: viewport.width - 2 * PADDING,
        zoom,
        rotation,
        gap: GAP,
        padding: PADDING,
      }),
    [source, viewport, zoom, rotation],
  );
  const renderScale = useSettled(layout?.scale ?? 0, 200);
  const overscan = warm && viewport ? viewport.height : 0;
  const range =
    layout && viewport && pagesInWindow(layout, { top: scroll.top, height: viewport.height }, overscan);

  // Keep the anchor point in place when the layout changes.
  useLayoutEffect(() => {
    const el = scroller.current;
    const before = previousLayout.current;
    previousLayout.current = layout;
    if (!el || !layout || !before || before === layout) return;
    const aimed = wheelAnchor.current?.zoom === zoom ? wheelAnchor.current.point : null;
    wheelAnchor.current = null;
    const anchor: Point = aimed ?? [el.clientWidth / 2, el.clientHeight / 2];
    const next = anchoredScroll(before, layout, { left: el.scrollLeft, top: el.scrollTop }, anchor);
    el.scrollTo(next.left, next.top);
  }, [layout, zoom]);

  // Carry out a page or field request once the pages are laid out.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!request || !layout || !el) return;
    const current = {
      left: el.scrollLeft,
      top: el.scrollTop,
      width: el.clientWidth,
      height: el.clientHeight,
    };
    let target: { left: number; top: number } | null = null;
    let shown = pageInView(layout, current);
    if (request.kind === 'page') {
      shown = Math.min(request.page, layout.slots.length - 1);
      target = { left: current.left, top: pageTopScroll(layout, shown, PADDING) };
    } else {
      const found = firstLocation(props.leaves, request.path);
      if (found && found.page < layout.slots.length) {
        shown = found.page;
        target = revealScroll(polygonContentBox(layout, found.page, found.polygon), current, REVEAL_MARGIN);
      }
    }
    if (target) {
      requested.current = target.top;
      el.scrollTo(target.left, target.top);
    }
    dispatch({ type: 'requestDone', request, page: shown });
  }, [request, layout, props.leaves, dispatch]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el || !layout) return;
    setScroll({ left: el.scrollLeft, top: el.scrollTop });
    const fromRequest = requested.current !== null && Math.abs(requested.current - el.scrollTop) < 1;
    requested.current = null;
    if (fromRequest) return;
    const inView = pageInView(layout, { top: el.scrollTop, height: el.clientHeight });
    if (inView !== page) dispatch({ type: 'pageInView', page: inView });
  };

  // Ctrl/cmd-wheel (and trackpad pinch) zooms about the pointer; React's wheel listener is passive.
  const onWheel = useEffectEvent((e: WheelEvent) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    const el = scroller.current;
    if (!el) return;
    const box = el.getBoundingClientRect();
    const next = zoomForWheel(zoom, e.deltaY, e.deltaMode);
    dispatch(viewerActions.zoomTo(next));
    wheelAnchor.current = { zoom: clampZoom(next), point: [e.clientX - box.left, e.clientY - box.top] };
  });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const listener = (e: WheelEvent) => onWheel(e);
    el.addEventListener('wheel', listener, { passive: false });
    return () => el.removeEventListener('wheel', listener);
  }, []);

  return (
    <div
      ref={scroller}
      className="page-scroller"
      role="region"
      aria-label="Document pages"
      tabIndex={0}
      onScroll={onScroll}
    >
      {!source && (
        <p role="status" className="p-4 text-sm text-slate-700">
          Opening the document…
        </p>
      )}
      {source && layout && (
        <div className="page-content" style={{ width: layout.width, height: layout.height }}>
          {layout.slots.map((slot, index) => (
            <PageShell
              key={index}
              source={source}
              index={index}
              pageCount={layout.slots.length}
              slot={slot}
              rotation={rotation}
              mounted={range != null && index >= range.first && index <= range.last}
              natural={source.sizes[index] ?? slot.box}
              renderScale={renderScale}
              regions={props.regionsOn(index)}
              onFieldHover={props.onFieldHover}
              onFieldSelect={props.onFieldSelect}
              onDrawn={onDrawn}
            />
          ))}
        </div>
      )}
    </div>
  );
});
