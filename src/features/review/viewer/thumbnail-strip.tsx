import { memo, useEffect, useMemo, useRef, useState } from 'react';
import {
  layoutPages,
  pageBoxTransform,
  pagesInWindow,
  revealScroll,
  type Rotation,
} from '@extraction-review/review-domain/viewer/geometry';
import { PageBitmap } from './page-bitmap';
import type { PageSource } from './page-source';
import { storedDrawSize, turnedBoxProps, turnOf } from './turned-bitmap';
import { useElementSize } from './use-element-size';

const THUMB_WIDTH = 88;
/** Room under each thumbnail for its page number. */
const LABEL = 22;
const PADDING = 8;

interface Props {
  source: PageSource;
  page: number;
  rotation: Rotation;
  /** Off until the first page is drawn: thumbnails must not delay it. */
  enabled: boolean;
  onPageSelect: (page: number) => void;
}

/**
 * Every page as a small picture to click; laid out and windowed like the pages themselves (only
 * the thumbnails in sight are drawn), and kept scrolled to the page in view.
 */
export const ThumbnailStrip = memo(function ThumbnailStrip({
  source,
  page,
  rotation,
  enabled,
  onPageSelect,
}: Props) {
  const strip = useRef<HTMLElement>(null);
  const size = useElementSize(strip);
  const [scrollTop, setScrollTop] = useState(0);
  const layout = useMemo(
    () =>
      layoutPages({
        sizes: source.sizes,
        fitWidth: THUMB_WIDTH,
        zoom: 1,
        rotation,
        gap: LABEL,
        padding: PADDING,
      }),
    [source.sizes, rotation],
  );
  const range =
    enabled && size ? pagesInWindow(layout, { top: scrollTop, height: size.height }, size.height / 2) : null;

  useEffect(() => {
    const el = strip.current;
    const slot = layout.slots[page];
    if (!el || !slot) return;
    const box = {
      x0: slot.left,
      y0: slot.top,
      x1: slot.left + slot.width,
      y1: slot.top + slot.height + LABEL,
    };
    const viewport = {
      left: el.scrollLeft,
      top: el.scrollTop,
      width: el.clientWidth,
      height: el.clientHeight,
    };
    const target = revealScroll(box, viewport, 0);
    if (target) el.scrollTo({ top: target.top });
  }, [page, layout]);

  return (
    <nav
      ref={strip}
      aria-label="Pages"
      className="thumbnail-strip"
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <ol className="relative" style={{ height: layout.height }}>
        {layout.slots.map((slot, index) => (
          <li key={index} className="absolute" style={{ top: slot.top, left: slot.left, width: slot.width }}>
            <button
              type="button"
              className="thumbnail"
              aria-label={`Page ${index + 1}`}
              aria-current={index === page ? 'page' : undefined}
              style={{ width: slot.width, height: slot.height }}
              onClick={() => onPageSelect(index)}
            >
              {range && index >= range.first && index <= range.last && (
                <span
                  className="page-box"
                  data-turn={turnedBoxProps(slot.box, turnOf(source, index))['data-turn']}
                  style={{
                    ...turnedBoxProps(slot.box, turnOf(source, index)).style,
                    width: slot.box.width,
                    height: slot.box.height,
                    transform: pageBoxTransform(rotation),
                  }}
                >
                  <PageBitmap
                    source={source}
                    index={index}
                    {...storedDrawSize(slot.box, turnOf(source, index))}
                    pixelRatio={window.devicePixelRatio || 1}
                  />
                </span>
              )}
            </button>
            <span aria-hidden="true" className="block text-center text-xs text-slate-700">
              {index + 1}
            </span>
          </li>
        ))}
      </ol>
    </nav>
  );
});
