/**
 * The fix that worker threads apply to pdf.js as they load it (untransformed-modules-hooks.mjs): the
 * bug is still in the installed pdfjs-dist (else drop the fix), and the fixed conversion copies every
 * pixel of a chunk from that chunk.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { patchPdfJs, withoutSourceMap } from './untransformed-modules-hooks.mjs';

const pdfjsSource = readFileSync(
  createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs'),
  'utf8',
);
const BUGGY = 'for (let j = i * 4, jj = srcPos + len;';

type Convert = (args: {
  src: Uint8Array;
  srcPos: number;
  dest: Uint32Array;
  width: number;
  height: number;
}) => { srcPos: number };

/** pdf.js's own convertRGBToRGBA, taken out of its bundle (little-endian, as on x86 and ARM). */
function convertRGBToRGBA(source: string): Convert {
  const start = source.indexOf('function convertRGBToRGBA(');
  const end = source.indexOf('\nfunction ', start + 1);
  const make = new Function('FeatureTest', `${source.slice(start, end)}\nreturn convertRGBToRGBA;`) as (
    featureTest: object,
  ) => Convert;
  return make({ isLittleEndian: true });
}

/** An RGB image drawn as pdf.js's putBinaryImageData does: 16 rows at a time. */
function drawInChunks(convert: Convert, src: Uint8Array, width: number, height: number): number[] {
  const pixels: number[] = [];
  let srcPos = 0;
  for (let row = 0; row < height; row += 16) {
    const rows = Math.min(16, height - row);
    const dest = new Uint32Array(width * 16);
    ({ srcPos } = convert({ src, srcPos, dest, width, height: rows }));
    pixels.push(...dest.subarray(0, width * rows));
  }
  return pixels;
}

describe('patchPdfJs', () => {
  it('finds the bug in the installed pdf.js, and fixes every occurrence', () => {
    // Zero here means pdf.js fixed it: remove the patch from untransformed-modules-hooks.mjs.
    expect(pdfjsSource.split(BUGGY).length - 1).toBe(2);
    expect(patchPdfJs(pdfjsSource)).not.toContain(BUGGY);
  });

  it('converts each chunk from its own bytes (a partial last chunk included)', () => {
    // 5 × 17: one full chunk, then one row of 15 bytes, whose last pixel the tail loop converts.
    const [width, height] = [5, 17];
    const src = new Uint8Array(width * height * 3 + 1).map((_, i) => (i * 7) % 251);
    const byte = (i: number): number => src[i] ?? 0;
    const expected = Array.from(
      { length: width * height },
      (_, p) => 0xff000000 | byte(p * 3) | (byte(p * 3 + 1) << 8) | (byte(p * 3 + 2) << 16),
    );
    const fixed = drawInChunks(convertRGBToRGBA(patchPdfJs(pdfjsSource)), src, width, height);
    expect(fixed.map((v) => v | 0)).toEqual(expected);
    // Unfixed, the last pixel is copied from the first chunk.
    const buggy = drawInChunks(convertRGBToRGBA(pdfjsSource), src, width, height);
    expect((buggy.at(-1) ?? 0) | 0).not.toBe(expected.at(-1));
  });

  it('drops the source map comment of pdf.js modules (Node would read and keep their maps)', () => {
    expect(pdfjsSource).toMatch(/\n\/\/# sourceMappingURL=pdf\.mjs\.map\s*$/);
    const served = withoutSourceMap(pdfjsSource);
    expect(served).not.toContain('//# sourceMappingURL=');
    expect(served.length).toBeGreaterThan(pdfjsSource.length - 40);
    expect(withoutSourceMap('a();\n')).toBe('a();\n');
  });
});
