// @vitest-environment node
/**
 * pdf.js text content → words (synthetic content, the viewport as pdf.js builds it for a page of
 * 600 × 800 points): runs split at white space with their share of the advance (by the widths given,
 * else by characters), boxes from the font's ascent and descent, normalised to the page as displayed
 * (turned with `/Rotate`), cut at its edge; marked content and blank runs skipped.
 */
import type { TextContent, TextItem } from 'pdfjs-dist/types/src/display/api';
import { describe, expect, it } from 'vitest';
import { boundingBox } from '@extraction-review/review-domain/viewer/geometry';
import { pdfTextWords, type PageViewportLike } from './pdf-text-words';

/** pdf.js's viewport at scale 1 for a 600 × 800 page (PDF y up), turned clockwise by `rotate`. */
function viewport(rotate: 0 | 90 = 0): PageViewportLike {
  return rotate === 0
    ? { width: 600, height: 800, convertToViewportPoint: (x, y) => [x, 800 - y] }
    : { width: 800, height: 600, convertToViewportPoint: (x, y) => [y, x] };
}

function run(str: string, x: number, y: number, size: number, width: number): TextItem {
  return {
    str,
    dir: 'ltr',
    transform: [size, 0, 0, size, x, y],
    width,
    height: size,
    fontName: 'f1',
    hasEOL: false,
  };
}

const content = (...items: TextContent['items']): Pick<TextContent, 'items' | 'styles'> => ({
  items,
  styles: { f1: { fontFamily: 'sans-serif', ascent: 0.75, descent: -0.25, vertical: false } },
});

const boxOf = (polygon: readonly (readonly [number, number])[]) => boundingBox(polygon);

describe('pdfTextWords', () => {
  it('gives a one-word run its whole advance, from descent to ascent, in the page frame', () => {
    const [word, ...rest] = pdfTextWords(content(run('1,234.56', 300, 400, 20, 90)), viewport());
    expect(rest).toEqual([]);
    expect(word?.text).toBe('1,234.56');
    const box = boxOf(word?.polygon ?? []);
    expect(box.x0).toBeCloseTo(300 / 600, 5);
    expect(box.x1).toBeCloseTo(390 / 600, 5);
    // Baseline at y 400 (of 800, from the bottom): ascent 15 points above it, descent 5 below.
    expect(box.y0).toBeCloseTo((800 - 415) / 800, 5);
    expect(box.y1).toBeCloseTo((800 - 395) / 800, 5);
  });

  it('splits a run at white space, by characters when no widths are known', () => {
    const words = pdfTextWords(content(run('ab cd', 0, 400, 10, 50)), viewport());
    expect(words.map((w) => w.text)).toEqual(['ab', 'cd']);
    expect(boxOf(words[0]?.polygon ?? []).x1).toBeCloseTo(20 / 600, 5);
    expect(boxOf(words[1]?.polygon ?? []).x0).toBeCloseTo(30 / 600, 5);
  });

  it('places words by the widths measured for the run’s font family', () => {
    const asked: string[] = [];
    const widthOf = (char: string, family: string) => {
      asked.push(family);
      return char === 'W' ? 3 : 1;
    };
    const words = pdfTextWords(content(run('W i', 0, 400, 10, 50)), viewport(), widthOf);
    // W 3, space 1, i 1: "i" starts at 4/5 of the advance.
    expect(boxOf(words[1]?.polygon ?? []).x0).toBeCloseTo(40 / 600, 5);
    expect(new Set(asked)).toEqual(new Set(['sans-serif']));
  });

  it('turns boxes with a page turned by /Rotate, as the viewport does', () => {
    const [word] = pdfTextWords(content(run('42', 100, 200, 10, 20)), viewport(90));
    const box = boxOf(word?.polygon ?? []);
    // (x, y) → (y, x) on an 800 × 600 page: the word runs downwards.
    expect(box.x0).toBeCloseTo(197.5 / 800, 5);
    expect(box.x1).toBeCloseTo(207.5 / 800, 5);
    expect(box.y0).toBeCloseTo(100 / 600, 5);
    expect(box.y1).toBeCloseTo(120 / 600, 5);
  });

  it('cuts a box at the page’s edge and skips blank runs and marked content', () => {
    const words = pdfTextWords(
      content(
        { type: 'beginMarkedContent', id: 'm1' },
        run('   ', 10, 10, 10, 30),
        run('zero', 10, 10, 10, 0),
        run('edge', 580, 400, 10, 40),
      ),
      viewport(),
    );
    expect(words.map((w) => w.text)).toEqual(['edge']);
    expect(boxOf(words[0]?.polygon ?? []).x1).toBe(1);
  });
});
