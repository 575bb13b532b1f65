/**
 * Pictures → upright greyscale pages, as a viewer shows them.
 *
 * JPEG, PNG, WebP and TIFF are decoded by sharp (libvips); EXIF/TIFF orientation is applied
 * (`autoOrient`), because browsers display photos turned by their EXIF orientation and the API's
 * polygons are relative to the picture as displayed. Transparent pixels are laid on white (dark text on
 * a transparent background would otherwise vanish into black). A TIFF has one page per image (IFD);
 * every other picture has one page.
 *
 * HEIC/HEIF: sharp's prebuilt libvips reads HEIF containers but not HEVC-coded pictures, so those are
 * decoded by heic-decode (libheif compiled to WASM, offline) into RGBA that sharp then takes raw. libheif
 * applies the container's rotation and mirroring. A HEIF that heic-decode cannot read (an AV1-coded one)
 * is tried with sharp, which reads AV1.
 *
 * Reading is bounded by the document limits (document-limits.ts): pages per TIFF, and each picture's
 * pixels, checked from its header before it is decoded (a 2 KB PNG may declare 30 000 × 30 000).
 */
import { readFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { ProblemError } from '@extraction-review/contract/problem';
import {
  DEFAULT_DOCUMENT_LIMITS,
  requireImageWithin,
  requirePageCount,
  type DocumentLimits,
} from './document-limits';
import { fromSharp, type GreyImage } from './ocr/grey-image';

export interface ImageInfo {
  pageCount: number;
}

/**
 * sharp's default `limitInputPixels` (16383 × 16383), which guards inspection (at enqueue, where the
 * service's own limits are not known) against decompression bombs; reading applies DOCUMENT_MAX_IMAGE_PIXELS.
 */
const MAX_MEGAPIXELS = 268;

/** The major brands heic-decode 2.1 accepts; other HEVC brands are relabelled `mif1` for it. */
const HEIC_DECODE_BRANDS = new Set(['mif1', 'msf1', 'heic', 'heix', 'hevc', 'hevx']);

const isHeif = (mimeType: string): boolean => mimeType === 'image/heic' || mimeType === 'image/heif';

/**
 * Page count of a picture, after checking that every page decodes (at a small size: JPEG decodes at
 * 1/8 scale, other formats in full but without keeping the pixels; HEIC in full, in WASM). Throws a
 * `422-003` otherwise.
 */
export async function inspectImage(path: string, mimeType: string): Promise<ImageInfo> {
  if (isHeif(mimeType)) {
    // Parsing does not find a cut file (libheif only notices when decoding): decode it, ~0.1 s a megapixel.
    await decodeHeif(path, { pixels: true });
    return { pageCount: 1 };
  }
  const meta = await sharp(path, { failOn: 'error' })
    .metadata()
    .catch((error: unknown) => {
      throw cannotDecode(error);
    });
  const pageCount = mimeType === 'image/tiff' ? Math.max(1, meta.pages ?? 1) : 1;
  for (let page = 0; page < pageCount; page++) {
    await sharp(path, { failOn: 'error', page })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer()
      .catch((error: unknown) => {
        throw cannotDecode(error, pageCount > 1 ? page : undefined);
      });
  }
  return { pageCount };
}

/**
 * Every page of the picture, upright and grey, one at a time. A `422-012` for a TIFF of more pages
 * than `limits.maxPages`, or a page of more pixels than `limits.maxImagePixels` (told from its header,
 * before it is decoded).
 */
export async function* readImagePages(
  path: string,
  mimeType: string,
  signal?: AbortSignal,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): AsyncGenerator<GreyImage> {
  if (isHeif(mimeType)) {
    const decoded = await decodeHeif(path, { pixels: true, limits });
    signal?.throwIfAborted();
    yield await toGrey(decoded);
    return;
  }
  const { pageCount } = await inspectImageCount(path, mimeType);
  requirePageCount(pageCount, limits);
  for (let page = 0; page < pageCount; page++) {
    signal?.throwIfAborted();
    const where = pageCount > 1 ? page : undefined;
    // sharp's limit is the backstop: the header read here gives the refusal its numbers.
    const options = { failOn: 'error', page, limitInputPixels: limits.maxImagePixels } as const;
    const meta = await sharp(path, { ...options, limitInputPixels: false })
      .metadata()
      .catch((error: unknown) => {
        throw cannotDecode(error, where);
      });
    requireImageWithin(
      { width: meta.width ?? 0, height: meta.pageHeight ?? meta.height ?? 0 },
      limits,
      whatOf(where),
    );
    yield await toGrey(sharp(path, options), where);
  }
}

async function inspectImageCount(path: string, mimeType: string): Promise<ImageInfo> {
  const meta = await sharp(path, { failOn: 'error', limitInputPixels: false })
    .metadata()
    .catch((error: unknown) => {
      throw cannotDecode(error);
    });
  return { pageCount: mimeType === 'image/tiff' ? Math.max(1, meta.pages ?? 1) : 1 };
}

/** Upright (EXIF orientation applied), on white, 8-bit grey. */
async function toGrey(image: Sharp, page?: number): Promise<GreyImage> {
  try {
    return await fromSharp(image.autoOrient().flatten({ background: '#ffffff' }));
  } catch (error) {
    throw cannotDecode(error, page);
  }
}

interface HeifDecodeOptions {
  /** false: check that the file holds a picture and read its size, without decoding pixels. */
  pixels: boolean;
  /** Checked against the picture's declared size before its pixels are decoded. */
  limits?: DocumentLimits;
}

async function decodeHeif(path: string, { pixels, limits }: HeifDecodeOptions): Promise<Sharp> {
  const buffer = await readFile(path);
  let heicError: unknown;
  try {
    const { default: decode } = await import('heic-decode');
    const images = await decode.all({ buffer: withKnownMajorBrand(buffer) });
    try {
      const [primary] = images;
      if (!primary || primary.width <= 0 || primary.height <= 0) throw new Error('HEIF image not found');
      if (!pixels) return sharp();
      // Inspection has no limits of the service's: sharp's guard, as for every other picture.
      if (limits) requireImageWithin(primary, limits);
      else if (primary.width * primary.height > MAX_MEGAPIXELS * 1e6) throw cannotDecode(PIXEL_LIMIT);
      const { width, height, data } = await primary.decode();
      return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
        raw: { width, height, channels: 4 },
      });
    } finally {
      images.dispose();
    }
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    heicError = error;
  }
  // Not HEVC (or not decodable by libheif-js): AV1-coded HEIF is within sharp's reach.
  const options = { failOn: 'error', limitInputPixels: limits?.maxImagePixels ?? true } as const;
  try {
    await sharp(buffer, options).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  } catch (error) {
    throw /pixel limit/i.test(String(error)) ? cannotDecode(error) : cannotDecode(heicError);
  }
  return sharp(buffer, options);
}

function withKnownMajorBrand(buffer: Buffer): Buffer {
  if (HEIC_DECODE_BRANDS.has(buffer.toString('latin1', 8, 12))) return buffer;
  const copy = Buffer.from(buffer);
  copy.write('mif1', 8, 'latin1');
  return copy;
}

function cannotDecode(error: unknown, page?: number): ProblemError {
  if (error instanceof ProblemError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const where = whatOf(page);
  if (/pixel limit/i.test(message)) {
    // sharp refuses before decoding: at enqueue (MAX_MEGAPIXELS), or as the backstop of a reading.
    return new ProblemError(
      '422-012',
      `${where} is too large to read: it has more than ${MAX_MEGAPIXELS} megapixels.`,
      { cause: error },
    );
  }
  return new ProblemError('422-003', `${where} cannot be decoded: ${firstLine(message)}.`, { cause: error });
}

/** What sharp says of a picture over its pixel limit (cannotDecode tells it by this). */
const PIXEL_LIMIT = new Error('Input image exceeds pixel limit');

const whatOf = (page?: number): string => (page === undefined ? 'The image' : `Page ${page + 1} of the TIFF`);

const firstLine = (message: string): string =>
  message
    .split('\n')[0]
    ?.trim()
    .replace(/[.:]+$/, '') ?? 'unknown error';
