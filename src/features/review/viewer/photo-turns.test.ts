/**
 * A v2 photo shown upright: its result's regions (in the photo's own frame) turned with its pages,
 * and a region picked on the upright page turned back into that frame gives the same region again.
 */
import { describe, expect, it } from 'vitest';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { boxToPolygon, rotatePolygon, toRotation } from '@extraction-review/review-domain/viewer/geometry';
import { turnLeaves } from './photo-turns';

const stored = boxToPolygon({ x0: 0.7, y0: 0.1, x1: 0.8, y1: 0.4 });
const leaf = (page: number): FieldLeaf => ({
  path: 'total_amount',
  name: 'total_amount',
  value: 1234.56,
  confidence: 'High',
  locations: [{ page, polygon: stored.map(([x, y]) => [x, y] as [number, number]) }],
});

describe('turnLeaves', () => {
  it("turns each region with its own page's turn", () => {
    const [first, second] = turnLeaves([leaf(0), leaf(1)], [90, 0]);
    // A quarter clockwise: the region near the top right goes to the bottom right, across.
    expect(first?.locations[0]?.polygon).toEqual(rotatePolygon(stored, 90));
    const box = first?.locations[0]?.polygon ?? [];
    const xs = box.map(([x]) => x);
    const ys = box.map(([, y]) => y);
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(0.3);
    expect(Math.max(...ys) - Math.min(...ys)).toBeCloseTo(0.1);
    expect(second?.locations[0]?.polygon).toEqual(stored);
  });

  it('leaves the leaves alone when no page is turned', () => {
    const leaves = [leaf(0)];
    expect(turnLeaves(leaves, undefined)).toBe(leaves);
  });

  it.each([90, 180, 270] as const)('is undone by the turn back a pick is kept with (%i°)', (turn) => {
    const shown = turnLeaves([leaf(0)], [turn])[0]?.locations[0]?.polygon ?? [];
    const back = rotatePolygon(shown, toRotation(360 - turn));
    back.forEach(([x, y], i) => {
      expect(x).toBeCloseTo(stored[i]?.[0] ?? NaN);
      expect(y).toBeCloseTo(stored[i]?.[1] ?? NaN);
    });
  });
});
