/**
 * Which way up a page is, with tesseract's orientation and script detection (OSD), fully offline: the
 * OSD model comes from `@tesseract.js-data/osd` and runs on tesseract.js-core's legacy engine (OSD is a
 * legacy-engine feature), both from node_modules.
 *
 * The answer is the clockwise rotation, in degrees, that makes the page upright: the meaning of the v1
 * API's `pages[].orientation.value` (the corpus's `multi_receipts_detector` photos turned 0/90/180/270
 * are answered 0/90/180/270 by the hosted service, and by this function).
 *
 * Cost (two cores): ~0.5 s to start the OSD worker once per thread, then 0.1–0.5 s per page. Not part of
 * ordinary extraction: issue 5 (v1 API) will ask it per page.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { createWorker, OEM, type Worker as TesseractWorker } from 'tesseract.js';
import { fromSharp, scaleForOcr, toPgm, type GreyImage } from './grey-image';
import { isBlank } from './tesseract-ocr';

const require = createRequire(import.meta.url);
const OSD_LANG_DIR = path.join(path.dirname(require.resolve('@tesseract.js-data/osd/package.json')), '4.0.0');

export type Orientation = 0 | 90 | 180 | 270;

export interface OrientationResult {
  /** The clockwise rotation that makes the page upright. */
  degrees: Orientation;
  /**
   * Tesseract's orientation confidence (its own scale, not 0..1: around 1–6 on real pages); null when
   * it found too little text to decide, in which case `degrees` is 0.
   */
  confidence: number | null;
}

export class OrientationDetector {
  private worker: Promise<TesseractWorker> | undefined;

  async detect(image: GreyImage): Promise<OrientationResult> {
    if (isBlank(image)) return { degrees: 0, confidence: null };
    const scaled = await scaleForOcr(image);
    const worker = await this.getWorker();
    const { data } = await worker.detect(toPgm(scaled) as Buffer);
    const degrees = data.orientation_degrees;
    if (degrees !== 0 && degrees !== 90 && degrees !== 180 && degrees !== 270) {
      return { degrees: 0, confidence: null };
    }
    return { degrees, confidence: data.orientation_confidence };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await (await worker).terminate();
  }

  private getWorker(): Promise<TesseractWorker> {
    this.worker ??= createWorker('osd', OEM.TESSERACT_ONLY, {
      langPath: OSD_LANG_DIR,
      gzip: true,
      cacheMethod: 'none',
      legacyCore: true,
      legacyLang: true,
    }).then(async (worker) => {
      await worker.setParameters({ debug_file: '/dev/null' });
      return worker;
    });
    this.worker.catch(() => (this.worker = undefined));
    return this.worker;
  }
}

let threadDetector: OrientationDetector | undefined;

/**
 * The clockwise rotation (0, 90, 180 or 270) that makes the page upright, 0 when it cannot tell.
 * `image`: a grey page as OCR sees it, or a picture's bytes or path (any type sharp reads, shown with
 * its EXIF orientation applied, as a browser shows it).
 */
export async function detectOrientation(image: GreyImage | Uint8Array | string): Promise<Orientation> {
  return (await detectOrientationWithConfidence(image)).degrees;
}

export async function detectOrientationWithConfidence(
  image: GreyImage | Uint8Array | string,
): Promise<OrientationResult> {
  const grey =
    typeof image === 'string' || image instanceof Uint8Array
      ? await fromSharp(sharp(image).autoOrient().flatten({ background: '#ffffff' }))
      : image;
  threadDetector ??= new OrientationDetector();
  return threadDetector.detect(grey);
}

/** Stops this thread's OSD worker (the next call starts a new one). */
export async function closeOrientationDetection(): Promise<void> {
  await threadDetector?.close();
}
