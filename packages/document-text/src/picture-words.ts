/**
 * The words printed inside the pictures of a page that has a text layer (a supplier's name in its
 * logo, a stamp, a scanned page under a partial text layer): read by OCR of the page's picture
 * regions only, as drawn, and kept where the text layer has no word of its own. For the review's page
 * words (read-page.ts), so that a value printed only in a logo counts as on the page.
 *
 * Bounded: only the box round the pictures is read (cropped from a page drawn within the document
 * limits), in the thread that reads the page, once per page (the caller keeps the answer).
 */
import type { Word } from './extractor';
import type { Box } from './geometry';
import type { GreyImage } from './ocr/grey-image';

/** Room round the pictures' box: OCR reads a word cut at a picture's edge badly. */
const MARGIN = 0.01;
/** An OCR word counts as the text layer's own when this share of it lies under a text-layer word. */
const OVERLAP = 0.3;

export interface PictureReading {
  /** The part of the page to read (normalised), or null when there is nothing to read. */
  crop: Box | null;
  /** The OCR words of `crop` (boxes normalised to the crop), back on the page and filtered. */
  keep(words: readonly Word[]): Word[];
}

/** What to read of a page with `regions` pictures and the text layer's `textWords`, and what to keep. */
export function pictureReading(regions: readonly Box[], textWords: readonly Word[]): PictureReading {
  if (regions.length === 0) return { crop: null, keep: () => [] };
  const crop = {
    x0: Math.max(0, Math.min(...regions.map((r) => r.x0)) - MARGIN),
    y0: Math.max(0, Math.min(...regions.map((r) => r.y0)) - MARGIN),
    x1: Math.min(1, Math.max(...regions.map((r) => r.x1)) + MARGIN),
    y1: Math.min(1, Math.max(...regions.map((r) => r.y1)) + MARGIN),
  };
  const w = crop.x1 - crop.x0;
  const h = crop.y1 - crop.y0;
  return {
    crop,
    keep: (words) =>
      words
        .map((word) => ({
          ...word,
          box: {
            x0: crop.x0 + word.box.x0 * w,
            y0: crop.y0 + word.box.y0 * h,
            x1: crop.x0 + word.box.x1 * w,
            y1: crop.y0 + word.box.y1 * h,
          },
        }))
        .filter((word) => regions.some((r) => holdsCentre(grow(r, MARGIN), word.box)))
        .filter((word) => !textWords.some((t) => covered(word.box, t.box))),
  };
}

/** The part `box` (normalised) of `image`, copied row by row. */
export function cropGrey(image: GreyImage, box: Box): GreyImage {
  const x0 = Math.floor(box.x0 * image.width);
  const y0 = Math.floor(box.y0 * image.height);
  const width = Math.max(1, Math.min(image.width, Math.ceil(box.x1 * image.width)) - x0);
  const height = Math.max(1, Math.min(image.height, Math.ceil(box.y1 * image.height)) - y0);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (y0 + y) * image.width + x0;
    data.set(image.data.subarray(from, from + width), y * width);
  }
  return { data, width, height };
}

const grow = (b: Box, m: number): Box => ({ x0: b.x0 - m, y0: b.y0 - m, x1: b.x1 + m, y1: b.y1 + m });

function holdsCentre(region: Box, box: Box): boolean {
  const x = (box.x0 + box.x1) / 2;
  const y = (box.y0 + box.y1) / 2;
  return x >= region.x0 && x <= region.x1 && y >= region.y0 && y <= region.y1;
}

function covered(word: Box, text: Box): boolean {
  const ix = Math.min(word.x1, text.x1) - Math.max(word.x0, text.x0);
  const iy = Math.min(word.y1, text.y1) - Math.max(word.y0, text.y0);
  if (ix <= 0 || iy <= 0) return false;
  const area = Math.max(1e-9, (word.x1 - word.x0) * (word.y1 - word.y0));
  return (ix * iy) / area >= OVERLAP;
}
