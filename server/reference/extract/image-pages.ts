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
 */
import { readFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { ProblemError } from '../../shared/problem';
import { fromSharp, type GreyImage } from './ocr/grey-image';

export interface ImageInfo {
  pageCount: number;
}

/** sharp's default `limitInputPixels` (16383 × 16383), which guards memory against decompression bombs. */
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

/** Every page of the picture, upright and grey, one at a time. */
export async function* readImagePages(
  path: string,
  mimeType: string,
  signal?: AbortSignal,
): AsyncGenerator<GreyImage> {
  if (isHeif(mimeType)) {
    const decoded = await decodeHeif(path, { pixels: true });
    signal?.throwIfAborted();
    yield await toGrey(decoded);
    return;
  }
  const { pageCount } = await inspectImageCount(path, mimeType);
  for (let page = 0; page < pageCount; page++) {
    signal?.throwIfAborted();
    yield await toGrey(sharp(path, { failOn: 'error', page }), pageCount > 1 ? page : undefined);
  }
}

async function inspectImageCount(path: string, mimeType: string): Promise<ImageInfo> {
  const meta = await sharp(path, { failOn: 'error' })
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
}

async function decodeHeif(path: string, { pixels }: HeifDecodeOptions): Promise<Sharp> {
  const buffer = await readFile(path);
  let heicError: unknown;
  try {
    const { default: decode } = await import('heic-decode');
    const images = await decode.all({ buffer: withKnownMajorBrand(buffer) });
    try {
      const [primary] = images;
      if (!primary || primary.width <= 0 || primary.height <= 0) throw new Error('HEIF image not found');
      if (!pixels) return sharp();
      const { width, height, data } = await primary.decode();
      return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
        raw: { width, height, channels: 4 },
      });
    } finally {
      images.dispose();
    }
  } catch (error) {
    heicError = error;
  }
  // Not HEVC (or not decodable by libheif-js): AV1-coded HEIF is within sharp's reach.
  try {
    await sharp(buffer, { failOn: 'error' }).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
    return sharp(buffer, { failOn: 'error' });
  } catch {
    throw cannotDecode(heicError);
  }
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
  const where = page === undefined ? 'The image' : `Page ${page + 1} of the TIFF`;
  if (/pixel limit/i.test(message)) {
    return new ProblemError(
      '422-003',
      `${where} is too large to read: it has more than ${MAX_MEGAPIXELS} megapixels.`,
      { cause: error },
    );
  }
  return new ProblemError('422-003', `${where} cannot be decoded: ${firstLine(message)}.`, { cause: error });
}

const firstLine = (message: string): string =>
  message
    .split('\n')[0]
    ?.trim()
    .replace(/[.:]+$/, '') ?? 'unknown error';
