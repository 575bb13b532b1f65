/**
 * Documents for the viewer journeys, made by the tests themselves, with the exact place of the words
 * asserted on (normalised to the page, origin top-left: the API's frame): a multi-page PDF drawn with
 * pdf-lib, and scans of it rasterised by pdf.js (as PNG, or as the pages of a TIFF with sharp).
 */
import sharp from 'sharp';
import { loadPdfDocument } from '@extraction-review/document-text/pdfjs';
import { renderPageCanvas } from '@extraction-review/document-text/pdf-render';
import { makeInvoicePdf, type MadeDocument, type WordBox } from './make-invoice';

/** Four pages; the invoice number and date on page 1, the total only on page 3. */
export function fourPageInvoice(): Promise<MadeDocument> {
  return makeInvoicePdf([
    { label: 'Invoice number:', value: 'INV-2024-0303', y: 680, page: 0 },
    { label: 'Date:', value: '2024-03-03', y: 656, page: 0 },
    { label: 'Delivered to:', value: 'Warehouse 7', y: 600, page: 1 },
    { label: 'Total:', value: '3,303.33', y: 420, page: 2 },
    { label: 'Thank you for', value: 'your business', y: 700, page: 3 },
  ]);
}

export interface Scan {
  /** One PNG per page. */
  pages: Buffer[];
  words: Record<string, WordBox>;
}

/** A PDF's pages as pictures at `dpi`, the words where pdf-lib drew them (a scan has no text layer). */
export async function rasterise(doc: MadeDocument, dpi = 150): Promise<Scan> {
  // The service's own renderer (pdf.js on a Skia canvas), in colour; pdf.js keeps the bytes it gets.
  const task = await loadPdfDocument(doc.bytes.slice());
  try {
    const opened = await task.promise;
    const pages: Buffer[] = [];
    for (let i = 1; i <= opened.numPages; i++) {
      const canvas = await renderPageCanvas(await opened.getPage(i), dpi);
      pages.push(await canvas.encode('png'));
    }
    return { pages, words: doc.words };
  } finally {
    await task.destroy();
  }
}

/** The pages as one multi-page TIFF. */
export async function tiffOf(pages: Buffer[]): Promise<Buffer> {
  return sharp(pages, { join: { animated: true } })
    .tiff({ compression: 'lzw' })
    .toBuffer();
}
