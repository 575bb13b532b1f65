import { describe, expect, it } from 'vitest';
import type { FieldLeaf } from '@extraction-review/review-domain/fields/flatten-fields';
import { firstLocation, regionsByPage, rowOf, rowRegion } from './field-regions';
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

describe('row regions', () => {
  it("names a value's table row, and none for a value outside a row", () => {
    expect(rowOf('line_items[1].description')).toBe('line_items[1]');
    expect(rowOf('line_items[1].origin.country')).toBe('line_items[1]');
    expect(rowOf('a[0].b[2].c')).toBe('a[0].b[2]');
    expect(rowOf('tags[0]')).toBeNull();
    expect(rowOf('supplier.name')).toBeNull();
    expect(rowOf(null)).toBeNull();
  });

  it("boxes the polygons of the row's values on the page, and nothing of other rows", () => {
    const at = (path: string, x0: number, y0: number, x1: number, y1: number): FieldLeaf => ({
      path,
      name: path,
      value: path,
      confidence: 'High',
      locations: [
        { page: 0, polygon: boxToPolygon({ x0, y0, x1, y1 }).map(([x, y]): [number, number] => [x, y]) },
      ],
    });
    const regions = regionsByPage([
      at('rows[0].a', 0.1, 0.2, 0.3, 0.25),
      at('rows[0].b', 0.5, 0.21, 0.6, 0.24),
      at('rows[1].a', 0.1, 0.3, 0.3, 0.35),
      at('rows[10].a', 0.1, 0.8, 0.3, 0.85),
    ])(0);
    expect(rowRegion(regions, 'rows[0]')).toEqual({ x0: 0.1, y0: 0.2, x1: 0.6, y1: 0.25 });
    expect(rowRegion(regions, 'rows[2]')).toBeNull();
    expect(rowRegion(regions, null)).toBeNull();
  });
});
