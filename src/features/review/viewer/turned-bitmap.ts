import type { CSSProperties } from 'react';
import { rotateSize, type Rotation, type Size } from '@extraction-review/review-domain/viewer/geometry';
import type { PageSource } from './page-source';

/**
 * A page whose stored image is not upright (a v1 page with an orientation) is laid out, and its
 * polygons drawn, upright; only its bitmap is drawn in the stored frame and turned into place, by
 * CSS on the canvas or picture (index.css `.page-box[data-turn]`). The bitmap is drawn at the stored
 * frame's size, the upright box's size turned back.
 */
export function turnOf(source: PageSource, index: number): Rotation {
  return source.turns?.[index] ?? 0;
}

/** The size to draw a turned page's bitmap at, from the upright size. */
export function storedDrawSize(upright: Size, turn: Rotation): Size {
  return rotateSize(upright, turn);
}

/** Attributes of the page box that turn its bitmap into the upright box of `box` CSS pixels. */
export function turnedBoxProps(box: Size, turn: Rotation): { 'data-turn'?: string; style: CSSProperties } {
  if (turn === 0) return { style: {} };
  const stored = rotateSize(box, turn);
  return {
    'data-turn': String(turn),
    style: {
      ['--stored-width' as string]: `${stored.width}px`,
      ['--stored-height' as string]: `${stored.height}px`,
      ['--turn' as string]: `${turn}deg`,
    },
  };
}

/** The source with its pages turned upright: upright sizes and the turns (the same source without). */
export function withTurns(source: PageSource, turns: readonly Rotation[] | undefined): PageSource {
  if (!turns || turns.every((t) => t === 0)) return source;
  return { ...source, sizes: source.sizes.map((size, i) => rotateSize(size, turns[i] ?? 0)), turns };
}
