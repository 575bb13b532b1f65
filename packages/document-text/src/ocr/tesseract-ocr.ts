/**
 * Words with positions and confidences from a picture, with tesseract.js, fully offline.
 *
 * The English model comes from `@tesseract.js-data/eng` (the LSTM-only "best_int" model, 2.9 MB
 * gzipped) and the engine from `tesseract.js-core` in node_modules: nothing is ever fetched
 * (shared/TOOLCHAIN.md: without `langPath` tesseract.js fetches from a CDN and, offline, crashes the
 * process). `cacheMethod: 'none'` keeps it from writing `eng.traineddata` into the working directory.
 *
 * One tesseract worker per thread, created on first use (~0.3–0.6 s) and kept while it is used: the
 * extraction threads each hold one, so OCR runs at most as many pages at once as there are extraction
 * threads. One unused for `OCR_IDLE_MS` is stopped (~55–85 MB of resident memory freed); the next
 * page starts another.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker as TesseractWorker } from 'tesseract.js';
import type { Word } from '../extractor';
import { boxAroundPoints } from '../geometry';
import { scaleForOcr, toPgm, type GreyImage } from './grey-image';

const require = createRequire(import.meta.url);
/** The LSTM-only English model ("best_int"), the one tesseract.js's default OEM uses. */
export const ENG_LANG_DIR = path.join(
  path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

/**
 * Tesseract settings, chosen by measurement on the sample photos and scans (docs/reference-documents.md):
 * automatic page segmentation (PSM 3) and Sauvola's adaptive binarisation (`thresholding_method` 2),
 * which read photos with uneven lighting far better than the default global Otsu threshold (receipt
 * photo: 0.90 of the expected words instead of 0.70–0.86, and stable whether the input is grey or colour).
 */
const RECOGNITION_PARAMETERS = {
  tessedit_pageseg_mode: PSM.AUTO,
  thresholding_method: '2',
  // Tesseract's progress chatter ("Estimating resolution as …", "Detected N diacritics") goes nowhere.
  debug_file: '/dev/null',
};

/** Words tesseract is this unsure of are almost always specks, folds or background texture. */
const MIN_WORD_CONFIDENCE = 0.3;

export interface RecognizeOptions {
  /** The image's resolution when known (a rendered PDF page); tesseract estimates it otherwise. */
  dpi?: number;
  signal?: AbortSignal;
}

/** A tesseract worker unused this long is stopped (its memory freed); the next page starts another. */
export const OCR_IDLE_MS = 10 * 60_000;

export class TesseractOcr {
  private worker: Promise<TesseractWorker> | undefined;
  /** One recognition at a time: parameters are set per call on the one worker. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Recognitions asked for and not yet settled. */
  private pending = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs = OCR_IDLE_MS) {}

  /** Creates the tesseract worker ahead of the first page. */
  async warmUp(): Promise<void> {
    await this.getWorker();
    this.stopWhenIdle();
  }

  /** Whether a tesseract worker is started (or starting). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  /**
   * The words of the image, boxes normalised to it (0..1, origin top-left), confidence 0..1. The image
   * is first scaled for OCR (grey-image.ts); boxes are relative, so that changes nothing for callers.
   */
  recognize(image: GreyImage, options: RecognizeOptions = {}): Promise<Word[]> {
    this.pending++;
    clearTimeout(this.idleTimer);
    const run = this.queue.then(() => this.recognizeNow(image, options));
    this.queue = run.catch(() => undefined);
    void this.queue.then(() => {
      this.pending--;
      this.stopWhenIdle();
    });
    return run;
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }

  private stopWhenIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.pending > 0 || !this.worker) return;
    this.idleTimer = setTimeout(() => {
      if (this.pending === 0) void this.close().catch(() => undefined);
    }, this.idleMs);
    // An idle engine must not keep the process (or its thread) alive.
    this.idleTimer.unref();
  }

  private getWorker(): Promise<TesseractWorker> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: ENG_LANG_DIR,
      gzip: true,
      cacheMethod: 'none',
    }).then(async (worker) => {
      await worker.setParameters(RECOGNITION_PARAMETERS);
      return worker;
    });
    // A failed start must not stick: the next call tries again.
    this.worker.catch(() => (this.worker = undefined));
    return this.worker;
  }

  private async recognizeNow(image: GreyImage, { dpi, signal }: RecognizeOptions): Promise<Word[]> {
    signal?.throwIfAborted();
    if (isBlank(image)) return [];
    const scaled = await scaleForOcr(image);
    const worker = await this.getWorker();
    const scaledDpi = dpi ? Math.round((dpi * scaled.width) / image.width) : 0;
    // 0 lets tesseract estimate the resolution from the text's height.
    await worker.setParameters({ user_defined_dpi: String(scaledDpi) });
    // Tesseract cannot be interrupted: an abort stops this worker (the next call starts another).
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        reject(signal?.reason);
        void this.close();
      };
    });
    // Aborted while the worker started or the image was scaled: a listener added now would never
    // hear it, and the page would be read to the end.
    signal?.throwIfAborted();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const { data } = await Promise.race([
        worker.recognize(toPgm(scaled) as Buffer, {}, { blocks: true, text: false }),
        aborted,
      ]);
      return wordsOf(data, scaled);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** Grey levels within this range of each other: an empty page (white paper, a uniform scan). */
const BLANK_CONTRAST = 24;

/** A page without any contrast has no text: OCR would take ~0.15 s to say so. */
export function isBlank(image: GreyImage): boolean {
  let min = 255;
  let max = 0;
  for (const value of image.data) {
    if (value < min) min = value;
    if (value > max) max = value;
    if (max - min >= BLANK_CONTRAST) return false;
  }
  return true;
}

interface TesseractBlocks {
  blocks:
    | {
        paragraphs: {
          lines: {
            words: {
              text: string;
              confidence: number;
              bbox: { x0: number; y0: number; x1: number; y1: number };
            }[];
          }[];
        }[];
      }[]
    | null;
}

/**
 * Tesseract's words in reading order, boxes tightened to their ink and normalised to the image; its
 * confidence 0..100 becomes 0..1.
 */
export function wordsOf(data: TesseractBlocks, image: GreyImage): Word[] {
  const words: Word[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const word of line.words) {
          const text = word.text.trim();
          const confidence = Math.min(1, Math.max(0, word.confidence / 100));
          if (text === '' || confidence < MIN_WORD_CONFIDENCE) continue;
          const { x0, y0, x1, y1 } = inkBox(image, word.bbox);
          words.push({
            text,
            box: boxAroundPoints(
              [
                [x0, y0],
                [x1, y1],
              ],
              image.width,
              image.height,
            ),
            confidence,
          });
        }
      }
    }
  }
  return words;
}

interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The box without its blank margins. Tesseract's LSTM places some characters loosely (an "a" or a ":"
 * reaching a third of a line below the baseline), which makes a word's box up to 0.02 of the page
 * too tall; the rows and columns at the edges without ink (darker than half way between the box's
 * lightest and darkest pixel) are dropped.
 */
export function inkBox(image: GreyImage, box: PixelBox): PixelBox {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(image.width, Math.ceil(box.x1));
  const y1 = Math.min(image.height, Math.ceil(box.y1));
  if (x1 <= x0 || y1 <= y0) return box;
  let min = 255;
  let max = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const value = image.data[y * image.width + x] ?? 255;
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  if (max - min < BLANK_CONTRAST) return box;
  const threshold = (min + max) / 2;
  const inkAt = (x: number, y: number): boolean => (image.data[y * image.width + x] ?? 255) < threshold;
  const rowHasInk = (y: number): boolean => {
    for (let x = x0; x < x1; x++) if (inkAt(x, y)) return true;
    return false;
  };
  const columnHasInk = (x: number, top: number, bottom: number): boolean => {
    for (let y = top; y < bottom; y++) if (inkAt(x, y)) return true;
    return false;
  };
  let top = y0;
  while (top < y1 && !rowHasInk(top)) top++;
  let bottom = y1;
  while (bottom > top && !rowHasInk(bottom - 1)) bottom--;
  let left = x0;
  while (left < x1 && !columnHasInk(left, top, bottom)) left++;
  let right = x1;
  while (right > left && !columnHasInk(right - 1, top, bottom)) right--;
  return bottom > top && right > left ? { x0: left, y0: top, x1: right, y1: bottom } : box;
}

let threadOcr: TesseractOcr | undefined;

/** This thread's OCR engine (one tesseract worker per thread). */
export function sharedOcr(): TesseractOcr {
  threadOcr ??= new TesseractOcr();
  return threadOcr;
}
