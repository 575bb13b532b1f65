/**
 * OCR of pictures, on real files: the corpus's receipt photo (JPEG, PNG, WebP, TIFF, HEIC) and
 * pictures of text drawn at known places (testing/documents-images.ts), upright, stored turned with an
 * EXIF orientation, and as a two-page TIFF. No mocks: sharp, heic-decode and tesseract.js run for real,
 * offline.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import type { TextLineSpec } from '@extraction-review/test-kit/reference/generate-pdf';
import {
  drawTextPicture,
  encodePicture,
  multiPageTiff,
  type TextPicture,
} from '@extraction-review/test-kit/reference/documents-images';
import type { DocumentText, Word } from './extractor';
import type { Box } from './geometry';
import { ImageExtractor } from './image-extractor';
import { sharedOcr } from './ocr/tesseract-ocr';

const receipt = (name: string) => path.join(fixturesDir, 'file_types', name);
const extractor = new ImageExtractor();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reference-images-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await sharedOcr().close();
});

async function saved(name: string, bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

const texts = (document: DocumentText, page = 0): string[] =>
  document.pages[page]?.words.map((w) => w.text) ?? [];

function wordNamed(document: DocumentText, text: string, page = 0): Word {
  const word = document.pages[page]?.words.find((w) => w.text === text);
  if (!word) throw new Error(`no word "${text}" on page ${page}: ${texts(document, page).join(' ')}`);
  return word;
}

function expectBoxNear(actual: Box, expected: Box, tolerance: number, label = ''): void {
  for (const key of ['x0', 'y0', 'x1', 'y1'] as const) {
    expect(
      Math.abs(actual[key] - expected[key]),
      `${label}.${key}: ${actual[key]} vs ${expected[key]}`,
    ).toBeLessThan(tolerance);
  }
}

describe('the receipt photo (800 × 1066), in every format', () => {
  // Measured once by eye on the photo (pixels of the 800 × 1066 picture), pinned with a tolerance:
  // the large "Total" left of "£10.20", half way down.
  const TOTAL_LABEL: Box = { x0: 150 / 800, y0: 522 / 1066, x1: 246 / 800, y1: 546 / 1066 };
  const TOTAL_AMOUNT: Box = { x0: 440 / 800, y0: 515 / 1066, x1: 560 / 800, y1: 540 / 1066 };

  it.each([
    ['receipt.jpg', 'image/jpeg'],
    ['receipt.png', 'image/png'],
    ['receipt.webp', 'image/webp'],
    ['receipt.tif', 'image/tiff'],
    ['receipt.heic', 'image/heic'],
  ])(
    '%s: reads the total, its label and the shop, with boxes over the printed words',
    async (file, mimeType) => {
      const document = await extractor.extract({ path: receipt(file), mimeType });
      expect(document.pageCount).toBe(1);
      expect(document.pages[0]).toMatchObject({ index: 0, width: 800, height: 1066, source: 'ocr' });
      const words = texts(document);
      expect(words).toEqual(
        expect.arrayContaining(['Total', '£10.20', 'Kingley', 'Street', 'Payment', 'Receipt']),
      );
      expect(words.join(' ')).toContain('VAT 232 153');
      expect(words.length).toBeGreaterThan(55);

      // Two "Total" words: "20% VAT Total" and the large one; the large one is left of "£10.20".
      const amount = document.pages[0]?.words.find((w) => w.text === '£10.20' && w.box.y0 < 0.52);
      const label = document.pages[0]?.words.find((w) => w.text === 'Total' && w.box.x0 < 0.25);
      if (!amount || !label) throw new Error(`total not found: ${words.join(' ')}`);
      expectBoxNear(label.box, TOTAL_LABEL, 0.01, 'Total');
      expectBoxNear(amount.box, TOTAL_AMOUNT, 0.01, '£10.20');
      expect(label.confidence).toBeGreaterThan(0.8);
      expect(label.confidence).toBeLessThanOrEqual(1);
      for (const word of document.pages[0]?.words ?? []) {
        expect(word.box.x0).toBeGreaterThanOrEqual(0);
        expect(word.box.y1).toBeLessThanOrEqual(1);
        expect(word.box.x0).toBeLessThan(word.box.x1);
        expect(word.box.y0).toBeLessThan(word.box.y1);
      }
    },
  );
});

describe('pictures of text drawn at known places', () => {
  // Each word is drawn on its own (pdf-lib measures lines with kerning it does not draw, so a word's
  // expected place drifts along a line), in a large font on a small page.
  const words: TextLineSpec[] = [
    { text: 'Invoice', x: 40, y: 330, size: 22 },
    { text: 'INV-2024-0042', x: 180, y: 330, size: 22 },
    { text: 'Date:', x: 40, y: 280, size: 22 },
    { text: '2024-03-14', x: 180, y: 280, size: 22 },
    { text: 'Total:', x: 200, y: 80, size: 22 },
    { text: 'EUR', x: 330, y: 80, size: 22 },
  ];
  const page = { width: 500, height: 400, lines: words };
  let picture: TextPicture;
  beforeAll(async () => {
    picture = await drawTextPicture(page, 150);
  });

  /**
   * Where the word's ink is: pdf-lib's box spans the font's descent, ink without descenders stops at
   * the baseline.
   */
  const inkBox = (line: TextLineSpec): Box => ({
    ...picture.boxOf(0, line.text, line.text),
    y1: (page.height - line.y) / page.height,
  });

  function expectEveryWordWhereDrawn(document: DocumentText): void {
    for (const line of words) {
      expectBoxNear(wordNamed(document, line.text).box, inkBox(line), 0.01, line.text);
    }
  }

  it('an upright PNG: every word, boxes within 0.01 of where it was drawn', async () => {
    const file = await saved('drawn.png', await encodePicture(picture.image, 'png'));
    const document = await extractor.extract({ path: file, mimeType: 'image/png' });
    expect(document.pages[0]).toMatchObject({ width: picture.image.width, height: picture.image.height });
    expect(texts(document)).toEqual(words.map((w) => w.text));
    expectEveryWordWhereDrawn(document);
  });

  it('a JPEG stored turned, with EXIF orientation 6: read and placed as displayed (upright)', async () => {
    const bytes = await encodePicture(picture.image, 'jpeg', { exifOrientation: 6 });
    const file = await saved('turned.jpg', bytes);
    const document = await extractor.extract({ path: file, mimeType: 'image/jpeg' });
    // The displayed picture is the upright page: landscape, as drawn.
    expect(document.pages[0]).toMatchObject({ width: picture.image.width, height: picture.image.height });
    expect(texts(document)).toEqual(words.map((w) => w.text));
    expectEveryWordWhereDrawn(document);
  });

  it('a two-page TIFF: every page, in order, each with its own words', async () => {
    // sharp writes a multi-page TIFF from pages of one size.
    const second = await drawTextPicture(
      { ...page, lines: [{ text: 'Second', x: 60, y: 300, size: 30 }] },
      150,
    );
    const file = await saved('two-pages.tiff', await multiPageTiff([picture.image, second.image]));
    const document = await extractor.extract({ path: file, mimeType: 'image/tiff' });
    expect(document.pageCount).toBe(2);
    expect(document.pages.map((p) => [p.index, p.width, p.height])).toEqual([
      [0, picture.image.width, picture.image.height],
      [1, second.image.width, second.image.height],
    ]);
    expect(texts(document, 0)).toEqual(words.map((w) => w.text));
    expect(texts(document, 1)).toEqual(['Second']);
    expectBoxNear(
      wordNamed(document, 'Second', 1).box,
      { ...second.boxOf(0, 'Second', 'Second'), y1: 100 / 400 },
      0.01,
      'Second',
    );
  });

  it('a picture without any contrast: one page, no words (not an error)', async () => {
    const blank = { data: new Uint8Array(400 * 300).fill(250), width: 400, height: 300 };
    const file = await saved('blank.webp', await encodePicture(blank, 'webp'));
    const document = await extractor.extract({ path: file, mimeType: 'image/webp' });
    expect(document).toEqual({
      pageCount: 1,
      pages: [{ index: 0, width: 400, height: 300, words: [], source: 'ocr' }],
    });
  });
});

describe('pictures that cannot be decoded', () => {
  it('a truncated JPEG fails with a 422-003 saying so', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = (await readFile(receipt('receipt.jpg'))).subarray(0, 30_000);
    const file = await saved('truncated.jpg', bytes);
    await expect(extractor.extract({ path: file, mimeType: 'image/jpeg' })).rejects.toMatchObject({
      code: '422-003',
      message: expect.stringMatching(/^The image cannot be decoded: .*premature end/i),
    });
  });

  it('a HEIF whose picture is missing fails with a 422-003', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = (await readFile(receipt('receipt.heic'))).subarray(0, 2_000);
    const file = await saved('cut.heic', bytes);
    await expect(extractor.extract({ path: file, mimeType: 'image/heic' })).rejects.toMatchObject({
      code: '422-003',
      message: expect.stringMatching(/^The image cannot be decoded/),
    });
  });
});
