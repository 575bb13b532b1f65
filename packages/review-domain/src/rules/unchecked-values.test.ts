import { describe, expect, it } from 'vitest';
import { buildReviewTree, NO_EDITS } from '../fields/review-tree';
import { generatedInvoice } from '@extraction-review/test-kit/invoices/generated-invoice';
import { uncheckedValues } from './unchecked-values';

const fields = (confidenceOf: Record<string, 'Certain' | 'High' | 'Medium' | 'Low' | null>) =>
  (
    generatedInvoice({ confidence: 'High', confidenceOf }).inference as {
      result: { fields: Parameters<typeof buildReviewTree>[0] };
    }
  ).result.fields;

describe('uncheckedValues', () => {
  const medium = fields({ total_amount: 'Medium', date: null, 'line_items[1].total_price': 'Low' });

  it('lists the values at Medium, Low or no confidence; High and Certain are not', () => {
    expect(uncheckedValues(buildReviewTree(medium)).sort()).toEqual(
      ['date', 'line_items[1].total_price', 'total_amount'].sort(),
    );
    expect(uncheckedValues(buildReviewTree(fields({})))).toEqual([]);
  });

  it('leaves out what the operator confirmed, corrected, removed or added', () => {
    const edits = {
      ...NO_EDITS,
      reviewed: ['total_amount'],
      values: { date: '2026-01-02' },
      removed: ['line_items[1]'],
      added: { line_items: 1 },
    };
    expect(uncheckedValues(buildReviewTree(medium, edits))).toEqual([]);
  });
});
