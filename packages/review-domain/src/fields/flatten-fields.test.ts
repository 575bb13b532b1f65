import { describe, expect, it } from 'vitest';
import { firstPageOf, flattenFields, regionsOnPage } from './flatten-fields';

const square = [
  [0.1, 0.1],
  [0.2, 0.1],
  [0.2, 0.2],
  [0.1, 0.2],
];

describe('flattenFields', () => {
  it('names every simple value by its path, through objects and lists', () => {
    const leaves = flattenFields({
      total: { value: 12.5, confidence: 'High', locations: [{ page: 1, polygon: square }] },
      supplier: { fields: { name: { value: 'ACME', confidence: null, locations: [] } } },
      taxes: {
        items: [{ fields: { rate: { value: 0.2 } } }, { fields: { rate: { value: 0.055 } } }],
      },
      tags: { items: [{ value: 'a' }, { value: null }] },
    });
    expect(leaves.map((l) => [l.path, l.value])).toEqual([
      ['total', 12.5],
      ['supplier.name', 'ACME'],
      ['taxes[0].rate', 0.2],
      ['taxes[1].rate', 0.055],
      ['tags[0]', 'a'],
      ['tags[1]', null],
    ]);
    expect(leaves[0]?.confidence).toBe('High');
    expect(leaves[2]?.locations).toEqual([]);
  });

  it('finds the regions of a page and the first page of a leaf', () => {
    const leaves = flattenFields({
      a: {
        value: 'x',
        locations: [
          { page: 2, polygon: square },
          { page: 0, polygon: square },
        ],
      },
    });
    expect(regionsOnPage(leaves, 2).map((r) => r.key)).toEqual(['a#0']);
    expect(regionsOnPage(leaves, 1)).toEqual([]);
    const [leaf] = leaves;
    if (!leaf) throw new Error('no leaf');
    expect(firstPageOf(leaf)).toBe(0);
  });
});
