/**
 * The browser's words of a text PDF (src/features/review/pick/pdf-text-words.ts, on pdf.js's text
 * content as the review's pdf.js gives it) against the app server's (the reference service's text
 * layer reader): the same words, the same boxes for runs of one word, a run of several placed within
 * a character; a page turned by `/Rotate` in the page as displayed; a scanned page has none, so the
 * browser asks the server to OCR it.
 */
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { pdfTextWords } from './pdf-text-words';
import { boundingBox } from '@extraction-review/review-domain/viewer/geometry';
import { closeDocumentExtraction } from '@extraction-review/document-text/extract-document-text';
import { loadPdfDocument } from '@extraction-review/document-text/pdfjs';
import { readPdfText } from '@extraction-review/document-text/pdf-text-extractor';

afterAll(async () => {
  await closeDocumentExtraction();
});

async function invoice(rotate = 0): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText('Invoice number:', { x: 72, y: 680, size: 12, font });
  page.drawText('INV-2024-0042', { x: 220, y: 680, size: 12, font });
  page.drawText('ACME Supplies Ltd', { x: 72, y: 600, size: 12, font });
  page.drawText('Total:', { x: 72, y: 300, size: 24, font });
  page.drawText('1,234.56', { x: 220, y: 300, size: 24, font });
  if (rotate) page.setRotation(degrees(rotate));
  return pdf.save();
}

/** What the browser reads: pdf.js's text content of each page, turned into words. */
async function browserWords(bytes: Uint8Array) {
  const task = await loadPdfDocument(bytes.slice());
  try {
    const pdf = await task.promise;
    const page = await pdf.getPage(1);
    return pdfTextWords(await page.getTextContent(), page.getViewport({ scale: 1 }));
  } finally {
    await task.destroy();
  }
}

async function serverWords(bytes: Uint8Array) {
  const text = await readPdfText(bytes.slice());
  return (text.pages[0]?.words ?? []).map((w) => ({ text: w.text, box: w.box }));
}

describe('the browser’s words of a text PDF', () => {
  it.each([0, 90])('are the server’s, in the page as displayed (/Rotate %i)', async (rotate) => {
    const bytes = await invoice(rotate);
    const browser = await browserWords(bytes);
    const server = await serverWords(bytes);
    expect(browser.map((w) => w.text)).toEqual(server.map((w) => w.text));
    expect(browser.map((w) => w.text)).toContain('1,234.56');
    browser.forEach((word, i) => {
      const mine = boundingBox(word.polygon);
      const theirs = server[i]?.box;
      if (!theirs) throw new Error(`no server word ${i}`);
      // Runs of one word agree to rounding; words of longer runs ("ACME Supplies Ltd", split by
      // characters here, by glyph widths there) within about a character.
      const single = !['Invoice', 'number:', 'ACME', 'Supplies', 'Ltd'].includes(word.text);
      const tolerance = single ? 1e-4 : 0.02;
      expect(Math.abs(mine.x0 - theirs.x0), `${word.text} x0`).toBeLessThan(tolerance);
      expect(Math.abs(mine.x1 - theirs.x1), `${word.text} x1`).toBeLessThan(tolerance);
      expect(Math.abs(mine.y0 - theirs.y0), `${word.text} y0`).toBeLessThan(tolerance);
      expect(Math.abs(mine.y1 - theirs.y1), `${word.text} y1`).toBeLessThan(tolerance);
    });
  });

  it('are none on a scanned page (the server OCRs it)', async () => {
    const pdf = await PDFDocument.create();
    const png = await sharp({
      create: { width: 200, height: 100, channels: 3, background: { r: 255, g: 255, b: 255 } },
    })
      .png()
      .toBuffer();
    const image = await pdf.embedPng(png);
    pdf.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    expect(await browserWords(await pdf.save())).toEqual([]);
  });
});
