import { describe, expect, it } from 'vitest';
import { runStretchCorners, splitRun } from './pdf-text-runs';

describe('splitRun', () => {
  it('places words by glyph widths', () => {
    // "ab cd": a=1, b=3, space=1, c=2, d=3 → total 10
    const widths: Record<string, number> = { a: 1, b: 3, ' ': 1, c: 2, d: 3 };
    expect(splitRun('ab cd', (c) => widths[c])).toEqual([
      { text: 'ab', start: 0, end: 0.4 },
      { text: 'cd', start: 0.5, end: 1 },
    ]);
  });

  it('falls back to character counts without widths', () => {
    expect(splitRun('ab  cdef')).toEqual([
      { text: 'ab', start: 0, end: 0.25 },
      { text: 'cdef', start: 0.5, end: 1 },
    ]);
  });

  it('gives unknown glyphs the mean known width', () => {
    const words = splitRun('x?', (c) => (c === 'x' ? 2 : undefined));
    expect(words).toEqual([{ text: 'x?', start: 0, end: 1 }]);
    expect(splitRun('x ?', (c) => (c === 'x' ? 2 : undefined))[1]).toEqual({
      text: '?',
      start: 2 / 3,
      end: 1,
    });
  });

  it('ignores leading, trailing and repeated spaces', () => {
    expect(splitRun('  a  ').map((w) => w.text)).toEqual(['a']);
    expect(splitRun('   ')).toEqual([]);
  });
  it('counts a character of unknown width as the mean known one', () => {
    expect(splitRun('a b', (c) => (c === 'a' ? 2 : undefined))).toEqual([
      { text: 'a', start: 0, end: 1 / 3 },
      { text: 'b', start: 2 / 3, end: 1 },
    ]);
  });
});

describe('runStretchCorners', () => {
  it('spans a stretch of a run along its baseline, from descent to ascent', () => {
    // A 10-point run at (100, 200) with an advance of 50: its second half.
    expect(runStretchCorners([10, 0, 0, 10, 100, 200], 50, 0.5, 1, 0.8, -0.2)).toEqual([
      [125, 198],
      [150, 198],
      [150, 208],
      [125, 208],
    ]);
  });
  it('follows a run drawn upwards (text turned a quarter anticlockwise)', () => {
    const corners = runStretchCorners([0, 10, -10, 0, 100, 200], 50, 0, 1, 0.8, -0.2);
    expect(corners.map(([x, y]) => [Math.round(x), Math.round(y)])).toEqual([
      [102, 200],
      [102, 250],
      [92, 250],
      [92, 200],
    ]);
  });
});
