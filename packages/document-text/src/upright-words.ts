/**
 * A photo taken sideways (the phone held across, no EXIF orientation to say so) read upright: its
 * turn found by tesseract's orientation detection (ocr/orientation.ts), the picture turned upright
 * for OCR (which reads sideways text badly), and the words' boxes turned back into the frame of the
 * picture as stored, the frame of the v2 API's polygons. The turn goes with the words, so that the
 * review shows the picture upright (src/features/review/viewer/) and turns the boxes with it.
 */
import type { Word } from './extractor';
import type { Box } from './geometry';
import { rotateGrey, type GreyImage } from './ocr/grey-image';
import { detectOrientationWithConfidence, type Orientation } from './ocr/orientation';
import type { TesseractOcr } from './ocr/tesseract-ocr';

/**
 * Below this OSD confidence (tesseract's own scale, ~1–6 on real pages) a turn is not believed: a
 * photo shown turned wrongly is worse than one left as taken.
 */
export const MIN_TURN_CONFIDENCE = 1;

export interface UprightReading {
  /** In the frame of the picture as stored. */
  words: Word[];
  /** The clockwise turn that shows the picture upright. */
  turn: Orientation;
}

export async function readUpright(
  image: GreyImage,
  ocr: TesseractOcr,
  signal?: AbortSignal,
): Promise<UprightReading> {
  const found = await detectOrientationWithConfidence(image);
  signal?.throwIfAborted();
  const turn = found.confidence !== null && found.confidence >= MIN_TURN_CONFIDENCE ? found.degrees : 0;
  const words = await ocr.recognize(await rotateGrey(image, turn), { signal });
  return { words: words.map((w) => ({ ...w, box: turnBoxBack(w.box, turn) })), turn };
}

/**
 * A box on the picture turned clockwise by `turn`, brought back to the picture as stored: the
 * inverse of turning a normalised point clockwise (a quarter: `[x, y]` → `[1 - y, x]`).
 */
export function turnBoxBack(box: Box, turn: Orientation): Box {
  const back = (x: number, y: number): [number, number] => {
    switch (turn) {
      case 0:
        return [x, y];
      case 90:
        return [y, 1 - x];
      case 180:
        return [1 - x, 1 - y];
      case 270:
        return [1 - y, x];
    }
  };
  const [ax, ay] = back(box.x0, box.y0);
  const [bx, by] = back(box.x1, box.y1);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}
