/**
 * TIFF pages for the viewer: no browser displays TIFF, so utif2 decodes each page (every top-level
 * image of the file, as the service counts them) into an ImageBitmap, upright per its orientation
 * tag. Pages are decoded when first drawn and kept as bitmaps (held by the browser, not the JS
 * heap); `close` frees them.
 */
import * as UTIF from 'utif2';
import { orientationTransform, type Size } from '@extraction-review/review-domain/viewer/geometry';

export interface TiffDocument {
  /** Each page's upright size in pixels. */
  sizes: readonly Size[];
  page(index: number): Promise<ImageBitmap>;
  close(): void;
}

const tagNumber = (ifd: UTIF.IFD, tag: number): number | undefined => {
  const value = ifd[`t${tag}`];
  return Array.isArray(value) && typeof value[0] === 'number' ? value[0] : undefined;
};

/** The images of a TIFF file, with their stored sizes and orientations, without decoding pixels. */
export function readTiffPages(buffer: ArrayBuffer): { ifd: UTIF.IFD; stored: Size; orientation: number }[] {
  return UTIF.decode(buffer).flatMap((ifd) => {
    const width = tagNumber(ifd, 256);
    const height = tagNumber(ifd, 257);
    if (!width || !height) return [];
    return [{ ifd, stored: { width, height }, orientation: tagNumber(ifd, 274) ?? 1 }];
  });
}

export async function openTiff(file: Blob): Promise<TiffDocument> {
  const buffer = await file.arrayBuffer();
  const pages = readTiffPages(buffer);
  if (pages.length === 0) throw new Error('The TIFF file holds no image.');
  const decoded = new Map<number, Promise<ImageBitmap>>();

  const decode = async (index: number): Promise<ImageBitmap> => {
    const page = pages[index];
    if (!page) throw new RangeError(`No page ${index} in this TIFF`);
    UTIF.decodeImage(buffer, page.ifd);
    const rgba = UTIF.toRGBA8(page.ifd);
    const { width, height } = page.stored;
    const pixels = new ImageData(
      new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, width * height * 4),
      width,
      height,
    );
    // The decoded pixels are no longer needed once the bitmap holds them.
    page.ifd.data = new Uint8Array(0);
    const stored = await createImageBitmap(pixels);
    if (page.orientation === 1) return stored;
    const { size, matrix } = orientationTransform(page.orientation, page.stored);
    const canvas = new OffscreenCanvas(size.width, size.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas to turn the TIFF page upright');
    context.setTransform(...matrix);
    context.drawImage(stored, 0, 0);
    stored.close();
    return canvas.transferToImageBitmap();
  };

  return {
    sizes: pages.map((p) => orientationTransform(p.orientation, p.stored).size),
    page(index) {
      let bitmap = decoded.get(index);
      if (!bitmap) decoded.set(index, (bitmap = decode(index)));
      return bitmap;
    },
    close() {
      for (const bitmap of decoded.values()) void bitmap.then((b) => b.close()).catch(() => {});
      decoded.clear();
    },
  };
}
