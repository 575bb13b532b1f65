/**
 * What one document may cost to read: pages, pixels of a rendered page, pixels of a decoded picture.
 * A tiny file can declare an enormous page or picture (444 bytes of PDF for an 8000 × 8000 pt page,
 * 22 222² pixels at the OCR resolution: 4.7 GB of canvas), so every size is checked from the
 * document's own description (the PDF's page box, the picture's header) before anything is drawn or
 * decoded. Shared by the reference service's extraction threads and the review's page words
 * (DOCUMENT_MAX_PAGES, DOCUMENT_MAX_RENDER_PIXELS, DOCUMENT_MAX_IMAGE_PIXELS: `DocumentLimitsSettings`
 * below, taken in by both servers' settings).
 *
 * Everything over a limit is a `422-012` ("Document too large to process") whose detail says which
 * limit and by how much.
 */
import { z } from 'zod';
import { ProblemError } from '@extraction-review/contract/problem';
import { optionalInt } from '@extraction-review/server-kit/settings-schema';

/**
 * The settings of what one document may cost to read, the same variables for the reference service's
 * extraction and the app server's page words (the defaults are `documentLimits()`'s): pages per
 * document, pixels of one rendered page (a larger page is rendered smaller, down to a floor, then
 * refused), and pixels of one decoded picture.
 */
export const DocumentLimitsSettings = {
  DOCUMENT_MAX_PAGES: optionalInt(1),
  DOCUMENT_MAX_RENDER_PIXELS: optionalInt(1),
  DOCUMENT_MAX_IMAGE_PIXELS: optionalInt(1),
};

export const DocumentLimits = z.object({
  /** Pages of one PDF or TIFF. */
  maxPages: z.number().int().positive(),
  /** Pixels of one rendered PDF page (width × height at the dpi it is drawn at). */
  maxRenderPixels: z.number().int().positive(),
  /** Pixels of one decoded picture (a photo, a TIFF page, an image inside a PDF page). */
  maxImagePixels: z.number().int().positive(),
});
export type DocumentLimits = z.infer<typeof DocumentLimits>;

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = Object.freeze({
  // Far beyond an invoice or a contract; a 5,000-page PDF took 7.6 s of pdf.js just for its text.
  maxPages: 500,
  // 40 MP: an A0 poster at ~160 dpi, an A4 page at 200 dpi ten times over; ~360 MB to draw (RGBA
  // canvas, its copy, the grey page).
  maxRenderPixels: 40_000_000,
  // 100 MP: beyond any phone camera (~50 MP) and an A3 scan at 600 dpi (~70 MP).
  maxImagePixels: 100_000_000,
});

/**
 * The lowest resolution a page is drawn at to fit `maxRenderPixels`: 36 dpi is half a screen's
 * 72 dpi, where 10 pt text is still 5 px high and OCR still finds a word's place, if not always its
 * letters. A page that does not fit even so (over ~1,600 × 1,600 in at the default 40 MP) is refused.
 */
export const MIN_RENDER_DPI = 36;

/** The limits with the settings that are set, the defaults elsewhere. */
export function documentLimits(settings: Partial<DocumentLimits> = {}): DocumentLimits {
  return DocumentLimits.parse({
    maxPages: settings.maxPages ?? DEFAULT_DOCUMENT_LIMITS.maxPages,
    maxRenderPixels: settings.maxRenderPixels ?? DEFAULT_DOCUMENT_LIMITS.maxRenderPixels,
    maxImagePixels: settings.maxImagePixels ?? DEFAULT_DOCUMENT_LIMITS.maxImagePixels,
  });
}

/** The DOCUMENT_MAX_* settings (`DocumentLimitsSettings`), unset ones left to the defaults. */
export function documentLimitsFromEnv(env: {
  DOCUMENT_MAX_PAGES?: number | undefined;
  DOCUMENT_MAX_RENDER_PIXELS?: number | undefined;
  DOCUMENT_MAX_IMAGE_PIXELS?: number | undefined;
}): DocumentLimits {
  return documentLimits({
    maxPages: env.DOCUMENT_MAX_PAGES,
    maxRenderPixels: env.DOCUMENT_MAX_RENDER_PIXELS,
    maxImagePixels: env.DOCUMENT_MAX_IMAGE_PIXELS,
  });
}

/** Throws the `422-012` of a document with more pages than allowed. */
export function requirePageCount(pageCount: number, limits: DocumentLimits): void {
  if (pageCount <= limits.maxPages) return;
  throw new ProblemError(
    '422-012',
    `The document has ${pageCount} pages: at most ${limits.maxPages} are read (DOCUMENT_MAX_PAGES).`,
  );
}

/**
 * The resolution to draw a page of `width` × `height` points at: `dpi` when the page fits
 * `maxRenderPixels` there, else the highest that fits (not below MIN_RENDER_DPI); a `422-012` when
 * even MIN_RENDER_DPI does not fit.
 */
export function renderDpiWithin(
  size: { width: number; height: number },
  dpi: number,
  limits: DocumentLimits,
): number {
  const pixelsAt = (d: number): number => pixels(size.width, d) * pixels(size.height, d);
  if (pixelsAt(dpi) <= limits.maxRenderPixels) return dpi;
  // Pixels grow with the square of the resolution. A whole number of dots per inch (OCR is told it):
  // floored, then stepped down while a partial pixel rounded up still overshoots.
  let fitted = Math.floor(dpi * Math.sqrt(limits.maxRenderPixels / pixelsAt(dpi)));
  while (fitted >= MIN_RENDER_DPI && pixelsAt(fitted) > limits.maxRenderPixels) fitted -= 1;
  if (fitted >= MIN_RENDER_DPI) return fitted;
  const inches = (pt: number): string => `${Math.round(pt / 72)}`;
  throw new ProblemError(
    '422-012',
    `A page of ${inches(size.width)} × ${inches(size.height)} in is too large to render: even at ` +
      `${MIN_RENDER_DPI} dpi it would take ${megapixels(pixelsAt(MIN_RENDER_DPI))}, over the ` +
      `${megapixels(limits.maxRenderPixels)} of DOCUMENT_MAX_RENDER_PIXELS.`,
  );
}

/** Pixels of `points` at `dpi`, as the canvas is sized (pdf-render.ts: a partial pixel counts). */
const pixels = (points: number, dpi: number): number => Math.max(1, Math.ceil((points * dpi) / 72 - 1e-3));

/** Throws the `422-012` of a picture larger than allowed; `what` names it ("The image", "Page 3 of the TIFF"). */
export function requireImageWithin(
  size: { width: number; height: number },
  limits: DocumentLimits,
  what = 'The image',
): void {
  const total = size.width * size.height;
  if (total <= limits.maxImagePixels) return;
  throw new ProblemError(
    '422-012',
    `${what} is ${size.width} × ${size.height} pixels (${megapixels(total)}), over the ` +
      `${megapixels(limits.maxImagePixels)} of DOCUMENT_MAX_IMAGE_PIXELS.`,
  );
}

/** Two decimals at most: 100.01 MP is over 100 MP, where rounding to one would hide it. */
const megapixels = (n: number): string => `${Math.round(n / 1e4) / 100} MP`;
