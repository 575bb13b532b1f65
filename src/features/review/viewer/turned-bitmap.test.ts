import { describe, expect, it } from 'vitest';
import type { PageSource } from './page-source';
import { storedDrawSize, turnedBoxProps, turnOf, withTurns } from './turned-bitmap';

const source: PageSource = {
  kind: 'image',
  url: 'blob:x',
  sizes: [
    { width: 400, height: 300 },
    { width: 400, height: 300 },
  ],
};

describe('turned bitmaps', () => {
  it('lays pages out upright: sizes turned, turns kept', () => {
    const turned = withTurns(source, [90, 180]);
    expect(turned.sizes).toEqual([
      { width: 300, height: 400 },
      { width: 400, height: 300 },
    ]);
    expect(turnOf(turned, 0)).toBe(90);
    expect(turnOf(turned, 1)).toBe(180);
    expect(turnOf(turned, 5)).toBe(0);
  });

  it('keeps the same source when nothing is turned (the pages are memoised on it)', () => {
    expect(withTurns(source, undefined)).toBe(source);
    expect(withTurns(source, [0, 0])).toBe(source);
  });

  it('draws a turned bitmap at the stored size and turns it into the upright box', () => {
    expect(storedDrawSize({ width: 300, height: 400 }, 90)).toEqual({ width: 400, height: 300 });
    expect(turnedBoxProps({ width: 300, height: 400 }, 270)).toEqual({
      'data-turn': '270',
      style: { '--stored-width': '400px', '--stored-height': '300px', '--turn': '270deg' },
    });
    expect(turnedBoxProps({ width: 300, height: 400 }, 0)).toEqual({ style: {} });
  });
});
