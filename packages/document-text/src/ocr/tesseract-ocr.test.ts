/** The OCR engine's life: started on use, stopped once idle, started again for the next page. */
import { afterAll, describe, expect, it } from 'vitest';
import { TesseractOcr } from './tesseract-ocr';

/** Stripes: contrast enough not to be blank, nothing to read. */
const stripes = {
  width: 64,
  height: 64,
  data: new Uint8Array(64 * 64).map((_, i) => (Math.floor(i / 64) % 8 < 4 ? 0 : 255)),
};

const ocr = new TesseractOcr(300);
afterAll(() => ocr.close());

describe('TesseractOcr', () => {
  it('stops its tesseract worker once idle, and starts another for the next page', async () => {
    expect(ocr.started).toBe(false);
    await ocr.recognize(stripes);
    expect(ocr.started).toBe(true);
    await expect.poll(() => ocr.started, { timeout: 5_000, interval: 50 }).toBe(false);
    expect(await ocr.recognize(stripes)).toEqual(expect.any(Array));
    expect(ocr.started).toBe(true);
  });

  it('waits for the last of the pages asked for before stopping', async () => {
    await Promise.all(Array.from({ length: 3 }, () => ocr.recognize(stripes)));
    expect(ocr.started).toBe(true);
    await expect.poll(() => ocr.started, { timeout: 5_000, interval: 50 }).toBe(false);
  });
});
