import { memo, useState } from 'react';
import {
  pageBoxTransform,
  renderPixelRatio,
  type PageSlot,
  type Rotation,
  type Size,
} from '@extraction-review/review-domain/viewer/geometry';
import { PickLayer } from '../pick/pick-layer';
import { FieldOverlay } from './field-overlay';
import type { Region } from './field-regions';
import { PageBitmap } from './page-bitmap';
import type { PageSource } from './page-source';
import { storedDrawSize, turnedBoxProps, turnOf } from './turned-bitmap';

/** Canvas pixels per page at most (16 M ≈ 64 MB): a zoomed page is drawn coarser, then stretched. */
const MAX_BITMAP_PIXELS = 16 * 1024 * 1024;

interface Props {
  source: PageSource;
  index: number;
  pageCount: number;
  slot: PageSlot;
  rotation: Rotation;
  /** In the window: drawn; otherwise an empty placeholder of the page's size. */
  mounted: boolean;
  /** Natural size × render scale = the size the bitmap is drawn at (it lags behind zoom). */
  natural: Size;
  renderScale: number;
  regions: readonly Region[];
  onFieldHover: (path: string | null) => void;
  onFieldSelect: (path: string) => void;
  onDrawn: (index: number) => void;
}

/** Pending, drawn at a width (CSS pixels), or failed. */
type Drawing = 'pending' | { width: number } | { error: Error };

/**
 * One page: a slot of the turned page's size at its place in the content; inside it, the page box
 * (the page's own size, turned by CSS) holds the bitmap and, over it, the field overlay. PDFs and
 * pictures share this shell; `data-rendered` tells tests and benches when the bitmap is on screen.
 */
export const PageShell = memo(function PageShell(props: Props) {
  const { source, index, pageCount, slot, rotation, mounted, natural, renderScale } = props;
  const [drawing, setDrawing] = useState<Drawing>('pending');
  const [attempt, setAttempt] = useState(0);
  // A page leaving the window loses its bitmap: it is pending again when it comes back.
  const [wasMounted, setWasMounted] = useState(mounted);
  if (wasMounted !== mounted) {
    setWasMounted(mounted);
    if (!mounted) setDrawing('pending');
  }

  const label = `Page ${index + 1} of ${pageCount}`;
  const drawSize = { width: natural.width * renderScale, height: natural.height * renderScale };
  const turn = turnOf(source, index);
  const turned = turnedBoxProps(slot.box, turn);
  const stored = storedDrawSize(drawSize, turn);
  const error = typeof drawing === 'object' && 'error' in drawing ? drawing.error : null;
  // Drawn at another size than the page box's (zoom, rotation): stretched until drawn again.
  const drawn = typeof drawing === 'object' && 'width' in drawing && drawing.width === slot.box.width;
  const boxStyle = {
    ...turned.style,
    width: slot.box.width,
    height: slot.box.height,
    transform: pageBoxTransform(rotation),
  };
  const overlay = (
    <>
      <FieldOverlay
        regions={props.regions}
        pageLabel={`page ${index + 1}`}
        onFieldHover={props.onFieldHover}
        onFieldSelect={props.onFieldSelect}
      />
      <PickLayer page={index} />
    </>
  );
  return (
    <section
      aria-label={label}
      data-page-index={index}
      data-rendered={drawn ? 'true' : error ? 'error' : 'false'}
      className="page-slot"
      style={{ top: slot.top, left: slot.left, width: slot.width, height: slot.height }}
    >
      {mounted && error && (
        // The polygons stay where they belong on the blank page.
        <div className="page-box" style={boxStyle}>
          {overlay}
        </div>
      )}
      {mounted && !error && (
        <div className="page-box" data-turn={turned['data-turn']} style={boxStyle}>
          <PageBitmap
            key={attempt}
            source={source}
            index={index}
            width={stored.width}
            height={stored.height}
            pixelRatio={renderPixelRatio(drawSize, window.devicePixelRatio || 1, MAX_BITMAP_PIXELS)}
            onDrawn={() => {
              // The same state when nothing changed: a bitmap told twice must not render the page again.
              const width = drawSize.width;
              setDrawing((d) => (typeof d === 'object' && 'width' in d && d.width === width ? d : { width }));
              props.onDrawn(index);
            }}
            onError={(e) => setDrawing({ error: e })}
          >
            {overlay}
          </PageBitmap>
        </div>
      )}
      {!mounted && (
        <span aria-hidden="true" className="page-placeholder">
          {index + 1}
        </span>
      )}
      {error && (
        <div role="alert" className="page-error">
          <p className="font-medium">Page {index + 1} could not be drawn.</p>
          <p className="text-xs break-all">{error.message}</p>
          <button
            type="button"
            className="mt-2 rounded-md border border-slate-400 bg-white px-3 py-1 text-sm hover:bg-slate-100"
            onClick={() => {
              setAttempt((n) => n + 1);
              setDrawing('pending');
            }}
          >
            Try again
          </button>
        </div>
      )}
    </section>
  );
});
