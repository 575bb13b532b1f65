/**
 * The finder on hand-placed words (a 1000 × 1000 page, characters 0.01 wide, lines 0.015 high), so each
 * rule can be seen on its own. Real PDFs go through the HTTP tests.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FieldResult, SimpleFieldResult } from '../../api-types';
import { FieldSchema } from '../../models/field-schema';
import { loadModelCatalog } from '../../models/model-catalog';
import type { PageText, Word } from '../extractor';
import { groupLines } from '../lines';
import { findFields } from './find-fields';

const CHAR = 0.01;
const HEIGHT = 0.015;

/** Lines of text at (x, y) of their first character's top-left corner. */
function page(index: number, lines: [text: string, x: number, y: number][]): PageText {
  const words: Word[] = [];
  for (const [text, x, y] of lines) {
    let offset = 0;
    for (const part of text.split(/( +)/)) {
      if (part.trim() !== '') {
        words.push({
          text: part,
          box: { x0: x + offset * CHAR, y0: y, x1: x + (offset + part.length) * CHAR, y1: y + HEIGHT },
          confidence: 1,
        });
      }
      offset += part.length;
    }
  }
  return { index, width: 1000, height: 1000, words };
}

let invoiceFields: FieldSchema[];
beforeAll(async () => {
  const catalog = await loadModelCatalog(path.join(import.meta.dirname, '..', '..', 'models.json'));
  invoiceFields = catalog.models[0]?.data_schema.fields ?? [];
});

function find(pages: PageText[], fields: FieldSchema[] = invoiceFields): Record<string, FieldResult> {
  return findFields(
    fields,
    pages.map((p) => ({ index: p.index, aspect: p.height / p.width, lines: groupLines(p) })),
  );
}

const simple = (result: FieldResult | undefined): SimpleFieldResult => {
  if (!result || !('value' in result)) throw new Error('not a simple field');
  return result;
};

describe('findFields', () => {
  it('reads values right of exact labels, as Certain, with their boxes and page', () => {
    const fields = find([
      page(0, [['Supplier: ACME Supplies Ltd', 0.1, 0.05]]),
      page(1, [
        ['Invoice number: INV-2024-0042', 0.1, 0.1],
        ['Date: March 14, 2025', 0.1, 0.13],
        ['Total: $1,234.56', 0.6, 0.8],
      ]),
    ]);
    expect(simple(fields['supplier_name'])).toMatchObject({
      value: 'ACME Supplies Ltd',
      confidence: 'Certain',
    });
    expect(simple(fields['invoice_number'])).toEqual({
      value: 'INV-2024-0042',
      confidence: 'Certain',
      locations: [
        {
          page: 1,
          polygon: [
            [expect.closeTo(0.26, 9), expect.closeTo(0.1, 9)],
            [expect.closeTo(0.39, 9), expect.closeTo(0.1, 9)],
            [expect.closeTo(0.39, 9), expect.closeTo(0.115, 9)],
            [expect.closeTo(0.26, 9), expect.closeTo(0.115, 9)],
          ],
        },
      ],
    });
    expect(simple(fields['date'])).toMatchObject({ value: '2025-03-14', confidence: 'Certain' });
    expect(simple(fields['total_amount'])).toMatchObject({ value: 1234.56, confidence: 'Certain' });
    // "March 14, 2025" is three words: the box spans them all.
    expect(simple(fields['date']).locations[0]?.polygon[1]?.[0]).toBeCloseTo(0.1 + 20 * CHAR, 9);
  });

  it('reads values below their labels (a header row) as High, and does not run into the next label', () => {
    const fields = find([
      page(0, [
        ['Invoice No.', 0.1, 0.1],
        ['Date', 0.4, 0.1],
        ['Amount due', 0.7, 0.1],
        ['INV-9', 0.1, 0.12],
        ['2024-01-02', 0.4, 0.12],
        ['1 234,50 EUR', 0.7, 0.12],
      ]),
    ]);
    expect(simple(fields['invoice_number'])).toMatchObject({ value: 'INV-9', confidence: 'High' });
    expect(simple(fields['date'])).toMatchObject({ value: '2024-01-02', confidence: 'High' });
    expect(simple(fields['total_amount'])).toMatchObject({ value: 1234.5, confidence: 'High' });
  });

  it('does not take a longer label for a shorter one ("Due date", "Total tax")', () => {
    const fields = find([
      page(0, [
        ['Due date: 2024-04-14', 0.1, 0.1],
        ['Date: 2024-03-14', 0.1, 0.2],
        ['Total tax: 10.00', 0.1, 0.3],
        ['Total: 110.00', 0.1, 0.4],
      ]),
    ]);
    expect(simple(fields['date'])).toMatchObject({ value: '2024-03-14', confidence: 'Certain' });
    expect(simple(fields['total_amount'])).toMatchObject({ value: 110, confidence: 'Certain' });
  });

  it('gives a variant label (a synonym not in the schema) Medium', () => {
    const fields = find([page(0, [['Bill number: B-77', 0.1, 0.1]])]);
    expect(simple(fields['invoice_number'])).toMatchObject({ value: 'B-77', confidence: 'Medium' });
  });

  it('gives a misspelt label Low', () => {
    const fields = find([page(0, [['Invoce number: X-1', 0.1, 0.1]])]);
    expect(simple(fields['invoice_number'])).toMatchObject({ value: 'X-1', confidence: 'Low' });
  });

  it('caps an ambiguous reading at Medium', () => {
    const fields = find([page(0, [['Date: 03/04/2025', 0.1, 0.1]])]);
    expect(simple(fields['date'])).toMatchObject({ value: '2025-04-03', confidence: 'Medium' });
  });

  it('lowers the confidence when an equally good reading disagrees', () => {
    const fields = find([
      page(0, [
        ['Total: 10.00', 0.1, 0.1],
        ['Total: 12.00', 0.1, 0.5],
      ]),
    ]);
    expect(simple(fields['total_amount'])).toMatchObject({ value: 10, confidence: 'High' });
  });

  it('answers a field it cannot find as null, without locations, Low', () => {
    const fields = find([
      page(0, [
        ['Hello world', 0.1, 0.1],
        ['Date: soon', 0.1, 0.2],
      ]),
    ]);
    expect(fields['invoice_number']).toEqual({ value: null, locations: [], confidence: 'Low' });
    expect(fields['date']).toEqual({ value: null, locations: [], confidence: 'Low' });
  });

  it('shapes list and object fields', () => {
    const schema = [
      FieldSchema.parse({
        title: 'Reference',
        name: 'reference',
        is_array: true,
        description: '',
        type: 'string',
      }),
      FieldSchema.parse({
        title: 'Payment',
        name: 'payment',
        is_array: false,
        description: '',
        type: 'nested_object',
        nested_fields: [
          { title: 'IBAN', name: 'iban', is_array: false, description: '', type: 'string' },
          { title: 'Paid', name: 'paid', is_array: false, description: '', type: 'boolean' },
        ],
      }),
    ];
    const fields = find(
      [
        page(0, [
          ['Reference: A-1', 0.1, 0.1],
          ['Reference: B-2', 0.1, 0.2],
          ['IBAN: FR76 3000', 0.1, 0.3],
        ]),
      ],
      schema,
    );
    expect(fields['reference']).toMatchObject({
      items: [{ value: 'A-1' }, { value: 'B-2' }],
      confidence: 'Certain',
    });
    expect(fields['payment']).toMatchObject({
      fields: {
        iban: { value: 'FR76 3000', confidence: 'Certain' },
        paid: { value: null, confidence: 'Low' },
      },
      locations: [],
      confidence: 'Low',
    });
  });
});
