import { describe, expect, it } from 'vitest';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { firstLocation, regionsByPage } from './field-regions';
import { boxToPolygon } from '@extraction-review/review-domain/viewer/geometry';

const leaf = (path: string, ...locations: [number, number][]): FieldLeaf => ({
  path,
  name: path,
  value: path,
  confidence: 'High',
  // [page, size]: a square of that size at the top-left.
  locations: locations.map(([page, size]) => ({
    page,
    polygon: boxToPolygon({ x0: 0, y0: 0, x1: size, y1: size }).map(([x, y]): [number, number] => [x, y]),
  })),
});

describe('regions by page', () => {
  const leaves = [leaf('table', [0, 0.5]), leaf('cell', [0, 0.1], [2, 0.1]), leaf('total', [2, 0.3])];
  const regionsOn = regionsByPage(leaves);

  it('groups every polygon by its page, larger ones first so smaller ones stay on top', () => {
    expect(regionsOn(0).map((r) => r.key)).toEqual(['table#0', 'cell#0']);
    expect(regionsOn(2).map((r) => r.key)).toEqual(['total#0', 'cell#1']);
  });

  it('gives the same empty list for a page without polygons', () => {
    expect(regionsOn(1)).toEqual([]);
    expect(regionsOn(1)).toBe(regionsOn(5));
  });

  it('finds where a field is first', () => {
    expect(firstLocation(leaves, 'cell')?.page).toBe(0);
    expect(firstLocation([leaf('late', [4, 0.1], [1, 0.2])], 'late')?.page).toBe(1);
    expect(firstLocation(leaves, 'missing')).toBeNull();
    expect(firstLocation([leaf('nowhere')], 'nowhere')).toBeNull();
  });
});
