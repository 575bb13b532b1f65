import * as UTIF from 'utif2';
import { describe, expect, it } from 'vitest';
import { readTiffPages } from './decode-tiff';

describe('TIFF pages', () => {
  it('lists every image of the file with its size, without decoding pixels', () => {
    const page = (w: number, h: number) => UTIF.encodeImage(new Uint8Array(w * h * 4).fill(255), w, h);
    const single = readTiffPages(page(30, 20));
    expect(single).toHaveLength(1);
    expect(single[0]).toMatchObject({ stored: { width: 30, height: 20 }, orientation: 1 });
  });

  it('reads nothing from a file that is not a TIFF', () => {
    let pages: unknown[] = [];
    try {
      pages = readTiffPages(new Uint8Array([1, 2, 3, 4]).buffer);
    } catch {
      // utif2 may also throw: either way, no page.
    }
    expect(pages).toEqual([]);
  });
});
