import { describe, expect, it } from 'vitest';
import { splitRun } from './split-run';

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
});
