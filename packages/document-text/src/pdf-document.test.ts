/**
 * One pdf.js document for everything a job asks of a PDF: the page size, the text layer and the
 * rendered page agree on the frame (the page as displayed, /Rotate and CropBox applied), and the ink of
 * a rendered word lies where pdf-lib drew it. Refusals are covered by inspect-document.test.ts.
 */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { generatePdf, type PageSpec } from '@extraction-review/test-kit/reference/generate-pdf';
import type { GreyImage } from './ocr/grey-image';
import { openPdf } from './pdf-document';
import { greyFromRgba } from './pdf-render';

const WORD = 'MARK';
const pages: PageSpec[] = [
  { lines: [{ text: WORD, x: 100, y: 600, size: 40 }] },
  { rotate: 90, lines: [{ text: WORD, x: 300, y: 100, size: 40, turned: true }] },
  { cropBox: [50, 100, 400, 500], lines: [{ text: WORD, x: 100, y: 400, size: 40 }] },
];

/** The box around the dark pixels, normalised to the image. */
function inkBox(image: GreyImage): { x0: number; y0: number; x1: number; y1: number } {
  let [x0, y0, x1, y1] = [image.width, image.height, -1, -1];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if ((image.data[y * image.width + x] ?? 255) < 128) {
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
      }
    }
  }
  return { x0: x0 / image.width, y0: y0 / image.height, x1: x1 / image.width, y1: y1 / image.height };
}

describe('openPdf', () => {
  it.each([
    [0, 'upright', [612, 792]],
    [1, '/Rotate 90', [792, 612]],
    [2, 'CropBox', [400, 500]],
  ] as const)('page %i (%s): size, text layer and rendering in one frame', async (index, _, size) => {
    const pdf = await generatePdf(pages);
    const opened = await openPdf(pdf.bytes);
    try {
      expect(opened.pageCount).toBe(3);
      const [width, height] = size;
      expect(await opened.pageSize(index)).toEqual({ width, height });

      const text = await opened.readText(index);
      expect(text).toMatchObject({ index, width, height, source: 'text-layer' });
      expect(text.words.map((w) => w.text)).toEqual([WORD]);

      // 144 dpi: twice the size in points, in pixels.
      const image = await opened.renderPage(index, 144);
      expect([image.width, image.height]).toEqual([width * 2, height * 2]);
      const expected = pdf.boxOf(index, WORD, WORD);
      const ink = inkBox(image);
      // Glyph ink sits inside the font's ascent-to-descent box: a little within it, never outside.
      for (const key of ['x0', 'y0', 'x1', 'y1'] as const) {
        expect(Math.abs(ink[key] - expected[key]), key).toBeLessThan(0.02);
      }
      expect(ink.x0).toBeGreaterThanOrEqual(expected.x0 - 0.005);
      expect(ink.x1).toBeLessThanOrEqual(expected.x1 + 0.005);
    } finally {
      await opened.close();
    }
  });

  it('renders a partial last pixel as a whole one (500 pt at 150 dpi: 1042 px)', async () => {
    const opened = await openPdf((await generatePdf([{ width: 500, height: 400 }])).bytes);
    try {
      const image = await opened.renderPage(0, 150);
      expect([image.width, image.height]).toEqual([1042, 834]);
      // A page without content is white.
      expect(image.data.every((v) => v === 255)).toBe(true);
    } finally {
      await opened.close();
    }
  });
});

describe('greyFromRgba', () => {
  it('weighs red, green and blue as MuPDF DeviceGray did, and ignores alpha', () => {
    const rgba = new Uint8Array([
      255, 255, 255, 255, 0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 0, 0, 0, 255, 9,
    ]);
    expect([...greyFromRgba(rgba)]).toEqual([255, 0, 76, 150, 27]);
  });
});

describe('rendering page after page', () => {
  it('keeps none of the pages drawn (the canvas pixels read with getImageData piled up, 15 MB a Letter page at 200 dpi)', async () => {
    const blank = await PDFDocument.create();
    for (let i = 0; i < 40; i++) blank.addPage([612, 792]);
    const pdf = await openPdf(await blank.save());
    const before = process.memoryUsage.rss() / 2 ** 20;
    let peak = before;
    try {
      for (let index = 0; index < pdf.pageCount; index++) {
        const image = await pdf.renderPage(index, 200);
        expect([image.width, image.height, image.dpi]).toEqual([1700, 2200, 200]);
        peak = Math.max(peak, process.memoryUsage.rss() / 2 ** 20);
      }
    } finally {
      await pdf.close();
    }
    console.log(`[40 pages rendered] rss ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB`);
    // Leaking, 40 pages kept ~600 MB; drawn one at a time, a page's canvas and copies are ~40 MB.
    expect(peak - before).toBeLessThan(300);
  }, 120_000);
});
