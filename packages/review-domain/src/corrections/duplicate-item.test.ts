import { describe, expect, it } from 'vitest';
import type { FieldResult } from '@extraction-review/contract/v2/schemas';
import { correctionsReducer, initialCorrections } from '../fields/corrections-reducer';
import { buildReviewTree, type Edits, type ListNode } from '../fields/review-tree';
import { copyOfItem, nextItemPath } from './duplicate-item';

const cell = (value: string | number | null): FieldResult => ({
  value,
  locations: [
    {
      page: 0,
      polygon: [
        [0.1, 0.1],
        [0.2, 0.1],
        [0.2, 0.2],
        [0.1, 0.2],
      ],
    },
  ],
  confidence: 'High',
});

const fields: Record<string, FieldResult> = {
  line_items: {
    confidence: 'High',
    items: [
      {
        fields: {
          description: cell('Steel bolts M8'),
          quantity: cell(100),
          unit: cell(null),
          origin: { fields: { country: cell('DE') }, locations: [], confidence: 'High' },
          tags: { items: [cell('metal')], confidence: 'High' },
        },
        locations: [],
        confidence: 'High',
      },
    ],
  },
};

const lineItems = (edits?: Edits) => buildReviewTree(fields, edits)[0] as ListNode;

describe('copyOfItem', () => {
  it("copies the row's values as shown (corrections included), not empty ones nor nested lists", () => {
    const edits: Edits = { values: { 'line_items[0].quantity': 120 }, removed: [], added: {}, reviewed: [] };
    const row = lineItems(edits).items[0];
    if (!row) throw new Error('no row');
    expect(copyOfItem(row.node)).toEqual({
      '.description': 'Steel bolts M8',
      '.quantity': 120,
      '.origin.country': 'DE',
    });
  });

  it('gives the copy as the next added row, its values as edited, without polygons or checks', () => {
    const loaded = { ...initialCorrections, loaded: true, reviewed: ['line_items[0].description'] };
    const row = lineItems(loaded).items[0];
    if (!row) throw new Error('no row');
    const state = correctionsReducer(loaded, {
      type: 'duplicateItem',
      list: 'line_items',
      extractedCount: 1,
      values: copyOfItem(row.node),
    });
    const list = lineItems(state);
    expect(list.items).toHaveLength(2);
    const copy = list.items[1];
    expect(copy?.added).toBe(true);
    expect(copy?.path).toBe(nextItemPath('line_items', 1, 0));
    const copied = copy?.node.kind === 'object' ? copy.node.children : [];
    const description = copied.find((c) => c.name === 'description');
    expect(description).toMatchObject({
      value: 'Steel bolts M8',
      edited: true,
      reviewed: false,
      locations: [],
    });
    expect(copied.find((c) => c.name === 'unit')).toMatchObject({ value: null, edited: false });
  });
});
