import { describe, expect, it } from 'vitest';
import { clampGridHeight, GRID_HEIGHT } from './grid-height';

describe('clampGridHeight', () => {
  it('keeps the grid between a quarter and most of the window, in whole percents', () => {
    expect(clampGridHeight(0.1)).toBe(GRID_HEIGHT.min);
    expect(clampGridHeight(0.99)).toBe(GRID_HEIGHT.max);
    expect(clampGridHeight(0.4567)).toBe(0.46);
    // A stored value that is not a number (edited by hand, an older format) opens at the initial height.
    expect(clampGridHeight(Number('tall'))).toBe(GRID_HEIGHT.initial);
  });
});
