import { describe, expect, it } from 'vitest';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { buildReviewTree } from '../fields/review-tree';
import { extractionFixture } from '@extraction-review/test-kit/recorded-results';
import { correctedFields } from './corrected-fields';
import { quote, toCsv } from './to-csv';

const v = (value: string | number | boolean | null) => ({ value, locations: [], confidence: null });
const lines = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .slice(0, -1);

describe('toCsv', () => {
  it('gives one row per table row, the document values repeated', () => {
    const fields: FieldMap = {
      invoice_number: v('INV-1'),
      supplier: { fields: { name: v('ACME'), city: v('Paris') }, locations: [], confidence: null },
      reference_numbers: { items: [v('PO-1'), v('PO-2')], confidence: null },
      line_items: {
        items: [
          { fields: { description: v('Bolts'), quantity: v(2) }, locations: [], confidence: null },
          { fields: { description: v('Nuts'), quantity: v(10) }, locations: [], confidence: null },
        ],
        confidence: null,
      },
      total: v(12.5),
    };
    const csv = toCsv(fields);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(lines(csv)).toEqual([
      'list,item,invoice_number,supplier.name,supplier.city,reference_numbers,total,line_items.description,line_items.quantity',
      'line_items,1,INV-1,ACME,Paris,PO-1; PO-2,12.5,Bolts,2',
      'line_items,2,INV-1,ACME,Paris,PO-1; PO-2,12.5,Nuts,10',
    ]);
  });

  it('gives one row when there is no table, and an empty cell for null', () => {
    expect(lines(toCsv({ a: v('x'), b: v(null), c: v(true) }))).toEqual(['a,b,c', 'x,,true']);
  });

  it('quotes commas, quotes, line breaks and edge spaces; guards against formulas', () => {
    expect(quote('plain')).toBe('plain');
    expect(quote('a,b')).toBe('"a,b"');
    expect(quote('say "hi"')).toBe('"say ""hi"""');
    expect(quote('two\nlines')).toBe('"two\nlines"');
    expect(quote('cr\rlf')).toBe('"cr\rlf"');
    expect(quote(' padded')).toBe('" padded"');
    const csv = lines(
      toCsv({
        formula: v('=HYPERLINK("x")'),
        negative: v(-5),
        at: v('@me'),
        address: v('1 Main St,\nSpringfield'),
      }),
    );
    expect(csv[1]).toBe('"\'=HYPERLINK(""x"")",-5,\'@me,"1 Main St,\nSpringfield"');
  });

  it('puts each table of the recorded financial document in its own rows', () => {
    const fields = correctedFields(
      buildReviewTree(
        extractionFixture('financial_document/complete_with_coordinates.json').inference.result.fields,
      ),
    );
    const rows = lines(toCsv(fields));
    const header = rows[0]?.split(',') ?? [];
    expect(header.slice(0, 2)).toEqual(['list', 'item']);
    expect(header).toContain('line_items.description');
    expect(header).toContain('supplier_address.city');
    const lineItems = rows.filter((r) => r.startsWith('line_items,'));
    expect(lineItems).toHaveLength(3);
    expect(lineItems[0]).toContain('Front and rear brake cables');
    expect(rows.filter((r) => r.startsWith('taxes,')).length).toBeGreaterThan(0);
  });

  it('flattens what nests inside a row (deep_nested_fields.json)', () => {
    const fields = correctedFields(
      buildReviewTree(extractionFixture('deep_nested_fields.json').inference.result.fields),
    );
    const rows = lines(toCsv(fields));
    expect(rows[0]).toContain(
      'field_object.sub_object_object.sub_object_object_sub_object_list.sub_object_object_sub_object_list_object.sub_object_object_sub_object_list_object_subobject_1',
    );
    expect(rows).toHaveLength(1 + 2 + 1);
  });
});
