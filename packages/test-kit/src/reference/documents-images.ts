/**
 * Test pictures and scanned PDFs with text at known places: a page is drawn with pdf-lib
 * (generate-pdf.ts knows where each word lands, from pdf-lib's own font metrics), rasterised with
 * pdf.js, then encoded as a picture (any type, optionally stored turned with an EXIF orientation), or
 * embedded as an image into a PDF without a text layer. The expected boxes are independent of the OCR
 * under test.
 */
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { rawSharp, type GreyImage } from '@extraction-review/document-text/ocr/grey-image';
import { openPdf } from '@extraction-review/document-text/pdf-document';
import { encryptedPdf } from './encrypted-pdf';
import { generatePdf, type GeneratedPdf, type PageSpec } from './generate-pdf';

export interface TextPicture {
  /** The page as a grey raster, upright. */
  image: GreyImage;
  /** Where each word was drawn (normalised, upright page, origin top-left): see generate-pdf.ts. */
  boxOf: GeneratedPdf['boxOf'];
}

/** One page of text drawn by pdf-lib and rasterised at `dpi` (the page's size in points × dpi / 72). */
export async function drawTextPicture(page: PageSpec, dpi = 150): Promise<TextPicture> {
  const pdf = await generatePdf([page]);
  const opened = await openPdf(pdf.bytes);
  try {
    return { image: await opened.renderPage(0, dpi), boxOf: pdf.boxOf };
  } finally {
    await opened.close();
  }
}

export type PictureFormat = 'jpeg' | 'png' | 'webp' | 'tiff';

/**
 * The picture encoded as `format`. With `exifOrientation: 6` the pixels are stored turned 90°
 * counter-clockwise and tagged "rotate 90° clockwise to display", as a phone held upright writes them:
 * displayed, the picture is upright again.
 */
export async function encodePicture(
  image: GreyImage,
  format: PictureFormat,
  options: { exifOrientation?: 6 } = {},
): Promise<Uint8Array> {
  let pipeline = rawSharp(image);
  if (options.exifOrientation === 6) {
    // Materialise the turned pixels first: sharp applies rotate() after any input orientation.
    const turned = await pipeline.rotate(270).png().toBuffer();
    pipeline = sharp(turned).withMetadata({ orientation: 6 });
  }
  return new Uint8Array(await pipeline.toFormat(format).toBuffer());
}

/** A multi-page TIFF, one page per image. */
export async function multiPageTiff(images: readonly GreyImage[]): Promise<Uint8Array> {
  const pages = await Promise.all(images.map((image) => rawSharp(image).png().toBuffer()));
  return new Uint8Array(
    await sharp(pages, { join: { animated: true } })
      .tiff()
      .toBuffer(),
  );
}

/**
 * A PDF whose pages are either text (`PageSpec`, a real text layer) or a picture drawn over the whole
 * page (no text layer: a scan).
 */
export async function pdfWithPages(
  pages: readonly ({ text: PageSpec } | { picture: GreyImage; width: number; height: number })[],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const page of pages) {
    if ('text' in page) {
      const [textPage] = await doc.copyPages(
        await PDFDocument.load((await generatePdf([page.text])).bytes),
        [0],
      );
      if (textPage) doc.addPage(textPage);
    } else {
      const png = await doc.embedPng(await rawSharp(page.picture).png().toBuffer());
      const added = doc.addPage([page.width, page.height]);
      added.drawImage(png, { x: 0, y: 0, width: page.width, height: page.height });
    }
  }
  return doc.save();
}

/** A PDF that opens only with a password (AES-256): see encrypted-pdf.ts. */
export function passwordProtectedPdf(): Uint8Array {
  return encryptedPdf({ text: 'Secret invoice', userPassword: 'user-secret', ownerPassword: 'owner-secret' });
}
