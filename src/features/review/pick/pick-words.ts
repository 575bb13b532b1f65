/**
 * Picking words on a page: which word is under a point, which words a dragged box covers, the run of
 * words between two in reading order, their text joined in that order, and the region they cover.
 * Everything is in the page's upright normalised frame (viewer/geometry.ts), the frame of the field
 * polygons: the caller brings a click into it through geometry.ts and takes the polygon as it is.
 */
import {
  boundingBox,
  boxToPolygon,
  type Box,
  type Point,
  type Polygon,
} from '@extraction-review/review-domain/viewer/geometry';

/** A word as the words source gives it: its text and where it stands on the upright page. */
export interface WordInput {
  text: string;
  polygon: Polygon;
  /** Read by the server's OCR in a picture of a page that has a text layer (a logo's words). */
  inPicture?: true | undefined;
}

/** A word ready for picking: its bounding box, and its rank in reading order (`order`). */
export interface PageWord {
  text: string;
  polygon: Polygon;
  box: Box;
  /** 0-based rank in reading order; also the word's index in `PageWords.words`. */
  order: number;
  /** 0-based line, in reading order. */
  line: number;
}

/**
 * The words of a page in reading order: lines from top to bottom (a word belongs to a line when its
 * vertical centre lies within the line's height), each line left to right.
 */
export function toPageWords(input: readonly WordInput[]): PageWord[] {
  const boxed = input
    .filter((w) => w.text.trim() !== '' && w.polygon.length > 0)
    .map((w) => ({ text: w.text, polygon: w.polygon, box: boundingBox(w.polygon) }));
  if (isVertical(boxed)) return readerOrder(boxed);
  boxed.sort((a, b) => centreY(a.box) - centreY(b.box));
  const lines: { y0: number; y1: number; words: typeof boxed }[] = [];
  for (const word of boxed) {
    const y = centreY(word.box);
    const line = lines.find((l) => y >= l.y0 && y <= l.y1);
    if (line) {
      line.words.push(word);
      line.y0 = Math.min(line.y0, word.box.y0);
      line.y1 = Math.max(line.y1, word.box.y1);
    } else lines.push({ y0: word.box.y0, y1: word.box.y1, words: [word] });
  }
  lines.sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const out: PageWord[] = [];
  lines.forEach((l, line) => {
    for (const w of l.words.sort((a, b) => a.box.x0 - b.box.x0)) out.push({ ...w, order: out.length, line });
  });
  return out;
}

/**
 * Text running up or down the page (a page turned a quarter as displayed): most words of three
 * letters or more are taller than wide. Boxes alone cannot tell down from up, so such a page keeps
 * the order its reader gave (the text layer's, OCR's), which follows the text.
 */
function isVertical(words: readonly { text: string; box: Box }[]): boolean {
  const long = words.filter((w) => w.text.trim().length >= 3);
  const tall = long.filter((w) => w.box.y1 - w.box.y0 > 1.5 * (w.box.x1 - w.box.x0));
  return long.length > 0 && tall.length > long.length / 2;
}

/** The reader's order; a new line where a word does not share the previous one's column. */
function readerOrder(words: readonly { text: string; polygon: Polygon; box: Box }[]): PageWord[] {
  let line = 0;
  return words.map((w, order) => {
    const previous = words[order - 1];
    if (previous && (w.box.x0 > previous.box.x1 || w.box.x1 < previous.box.x0)) line++;
    return { ...w, order, line };
  });
}

const centreY = (b: Box): number => (b.y0 + b.y1) / 2;
const centreX = (b: Box): number => (b.x0 + b.x1) / 2;

/**
 * The word under `point`: the one whose box, grown by `slop` (normalised units, for a click just
 * beside a thin word), holds it; among several, the one whose centre is nearest. Null when none.
 */
export function wordAt(words: readonly PageWord[], [x, y]: Point, slop = 0.004): PageWord | null {
  let best: PageWord | null = null;
  let bestDistance = Infinity;
  for (const w of words) {
    const { x0, y0, x1, y1 } = w.box;
    if (x < x0 - slop || x > x1 + slop || y < y0 - slop || y > y1 + slop) continue;
    const d = Math.hypot(x - centreX(w.box), y - centreY(w.box));
    if (d < bestDistance) {
      best = w;
      bestDistance = d;
    }
  }
  return best;
}

/** The words a dragged box covers: at least half of each word's box inside it, in reading order. */
export function wordsInBox(words: readonly PageWord[], box: Box): PageWord[] {
  const b = normaliseBox(box);
  return words.filter((w) => {
    const area = (w.box.x1 - w.box.x0) * (w.box.y1 - w.box.y0);
    const ix = Math.min(b.x1, w.box.x1) - Math.max(b.x0, w.box.x0);
    const iy = Math.min(b.y1, w.box.y1) - Math.max(b.y0, w.box.y0);
    if (ix <= 0 || iy <= 0) return false;
    // A word with no area (a dot) counts when its box touches the drag.
    return area <= 0 || (ix * iy) / area >= 0.5;
  });
}

/** A box from two corners in any order (a drag up and to the left). */
export function normaliseBox({ x0, y0, x1, y1 }: Box): Box {
  return { x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) };
}

/** The words from `a` to `b` (either way round) in reading order, both included: a shift-click. */
export function runBetween(words: readonly PageWord[], a: PageWord, b: PageWord): PageWord[] {
  const from = Math.min(a.order, b.order);
  const to = Math.max(a.order, b.order);
  return words.filter((w) => w.order >= from && w.order <= to);
}

/** The words' text in reading order, one space between words (lines too: a value is one line). */
export function joinWords(words: readonly PageWord[]): string {
  return [...words]
    .sort((a, b) => a.order - b.order)
    .map((w) => w.text.trim())
    .join(' ');
}

/**
 * The region the words cover, as a field polygon: the box round them all (a value over two lines
 * gets the box of both, as the service's own polygons of multi-line values are).
 */
export function unionPolygon(words: readonly PageWord[]): Polygon | null {
  if (words.length === 0) return null;
  return boxToPolygon(boundingBox(words.flatMap((w) => boxToPolygon(w.box))));
}

/**
 * The words a value stands on, where the keyboard's pick starts: those its regions on the page cover
 * (each region's bounding box, as a dragged box covers words), in reading order. Empty when the value
 * has no region on the page or none covers a word.
 */
export function wordsOfRegions(words: readonly PageWord[], regions: readonly Polygon[]): PageWord[] {
  const covered = new Set<PageWord>();
  for (const region of regions) {
    if (region.length === 0) continue;
    for (const w of wordsInBox(words, boundingBox(region))) covered.add(w);
  }
  return [...covered].sort((a, b) => a.order - b.order);
}

export type WordMove = 'left' | 'right' | 'up' | 'down';

/**
 * The word the keyboard's cursor moves to: left and right step through reading order; up and down go
 * to the line above or below, to the word nearest across. The first word when there is no cursor.
 */
export function moveWord(words: readonly PageWord[], from: PageWord | null, move: WordMove): PageWord | null {
  if (words.length === 0) return null;
  if (!from) return words[0] ?? null;
  if (move === 'left') return words[Math.max(0, from.order - 1)] ?? from;
  if (move === 'right') return words[Math.min(words.length - 1, from.order + 1)] ?? from;
  const line = from.line + (move === 'down' ? 1 : -1);
  const x = centreX(from.box);
  let best: PageWord | null = null;
  for (const w of words) {
    if (w.line !== line) continue;
    if (!best || Math.abs(centreX(w.box) - x) < Math.abs(centreX(best.box) - x)) best = w;
  }
  return best ?? from;
}
