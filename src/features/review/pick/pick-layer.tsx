import { useRef, useState, type PointerEvent } from 'react';
import { clientToPagePoint, toSvgPoints, type Point } from '@extraction-review/review-domain/viewer/geometry';
import { usePickContext, type PickContextValue } from './pick-context';
import { normaliseBox, wordAt, wordsInBox } from './pick-words';
import { usePageWords } from './use-page-words';

/** Pixels a press must travel to be a drag (a box) rather than a click. */
const DRAG_PIXELS = 5;

/**
 * Over one page while pick mode is on: the page's words, outlined faintly; a click picks the word
 * under it, Shift+click the run from the last word picked, a drag every word in the box. The layer
 * sits in the page box, so it turns with the page; a pointer's position is read into the page's
 * upright frame by the geometry module.
 */
export function PickLayer({ page }: { page: number }) {
  const pick = usePickContext();
  // Outside a review that picks (no context), or pick mode off: nothing, not even a query.
  return pick?.active ? <ActivePickLayer page={page} pick={pick} /> : null;
}

function ActivePickLayer({ page, pick }: { page: number; pick: PickContextValue }) {
  const words = usePageWords(pick.source, page, pick.pageTurns);
  const press = useRef<{ id: number; x: number; y: number; at: Point } | null>(null);
  const [drag, setDrag] = useState<{ from: Point; to: Point } | null>(null);

  const pointOf = (e: PointerEvent<SVGSVGElement>): Point =>
    clientToPagePoint([e.clientX, e.clientY], e.currentTarget.getBoundingClientRect(), pick.rotation);
  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    press.current = { id: e.pointerId, x: e.clientX, y: e.clientY, at: pointOf(e) };
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const p = press.current;
    if (!p || p.id !== e.pointerId) return;
    if (drag || Math.hypot(e.clientX - p.x, e.clientY - p.y) >= DRAG_PIXELS)
      setDrag({ from: p.at, to: pointOf(e) });
  };
  const onPointerUp = (e: PointerEvent<SVGSVGElement>) => {
    const p = press.current;
    if (!p || p.id !== e.pointerId) return;
    press.current = null;
    setDrag(null);
    const list = words.data ?? [];
    if (drag) {
      const [x1, y1] = pointOf(e);
      const inBox = wordsInBox(list, { x0: p.at[0], y0: p.at[1], x1, y1 });
      if (inBox.length > 0) pick.onPointerPick(page, { words: inBox });
      return;
    }
    const word = wordAt(list, pointOf(e));
    if (word) pick.onPointerPick(page, { word, extend: e.shiftKey, pageWords: list });
  };

  const chosen = pick.selection?.page === page ? pick.selection : null;
  const chosenSet = new Set(chosen?.words.map((w) => w.order));
  const box = drag && normaliseBox({ x0: drag.from[0], y0: drag.from[1], x1: drag.to[0], y1: drag.to[1] });
  return (
    <>
      <svg
        className="pick-layer"
        viewBox="0 0 1 1"
        preserveAspectRatio="none"
        role="group"
        aria-label={`Words on page ${page + 1}: click one to pick it, Shift+click to extend, drag a box`}
        data-words={words.isSuccess ? words.data.length : undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          press.current = null;
          setDrag(null);
        }}
      >
        {words.data?.map((w) => (
          <polygon
            key={w.order}
            className="pick-word"
            data-text={w.text}
            data-chosen={chosenSet.has(w.order) ? 'true' : undefined}
            data-cursor={chosen?.cursor?.order === w.order ? 'true' : undefined}
            points={toSvgPoints(w.polygon)}
          />
        ))}
        {box && (
          <rect
            className="pick-drag"
            x={box.x0}
            y={box.y0}
            width={box.x1 - box.x0}
            height={box.y1 - box.y0}
          />
        )}
      </svg>
      {(words.isPending || words.isError) && (
        <p role="status" className="pick-status">
          {words.isError
            ? `The words of page ${page + 1} could not be read.`
            : `Reading the words of page ${page + 1}…`}
        </p>
      )}
    </>
  );
}
