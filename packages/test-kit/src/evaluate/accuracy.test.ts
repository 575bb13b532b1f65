import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SAMPLE_DOCUMENTS, loadReference, samplePath } from '../reference/fields-samples';
import { foldString, formatReport, scoreExtraction, valuesMatch, type ExtractionLike } from './accuracy';
import { v1ToExtraction } from './v1-reference';

const response = (fields: Record<string, unknown>): ExtractionLike => ({ inference: { result: { fields } } });
const v = (value: unknown) => ({ value, locations: [], confidence: null });
const obj = (fields: Record<string, unknown>) => ({ fields, locations: [], confidence: null });
const items = (...list: unknown[]) => ({ items: list, confidence: null });

describe('valuesMatch', () => {
  it('compares strings without case, accents, spaces or punctuation', () => {
    expect(valuesMatch('New York, NY 10031', 'new york ny 10031')).toBe(true);
    expect(valuesMatch('0207 494 0834', '02074940834')).toBe(true);
    expect(valuesMatch('Café', 'CAFE')).toBe(true);
    expect(valuesMatch('INV-1', 'INV-2')).toBe(false);
    expect(foldString(' Jessie M. Horne\n')).toBe('jessiemhorne');
  });

  it('compares numbers with a tolerance, dates and booleans exactly, null only with null', () => {
    expect(valuesMatch(204.75, 204.75)).toBe(true);
    expect(valuesMatch(204.751, 204.75)).toBe(true);
    expect(valuesMatch(204.8, 204.75)).toBe(false);
    expect(valuesMatch(0.05, 5)).toBe(false);
    expect(valuesMatch('2019-02-11', '2019-02-11')).toBe(true);
    expect(valuesMatch('2019-11-02', '2019-02-11')).toBe(false);
    expect(valuesMatch(true, true)).toBe(true);
    expect(valuesMatch(null, null)).toBe(true);
    expect(valuesMatch(null, 'x')).toBe(false);
    expect(valuesMatch('x', null)).toBe(false);
  });
});

describe('scoreExtraction', () => {
  it('counts simple fields, object sub-fields, and null = null as a correct absence', () => {
    const report = scoreExtraction(
      response({
        date: v('2019-02-11'),
        total: v(10),
        tip: v(null),
        address: obj({ city: v('Albany'), state: v('NY') }),
        extra: v('ours only'),
      }),
      response({
        date: v('2019-02-11'),
        total: v(12),
        tip: v(null),
        address: obj({ city: v('ALBANY'), state: v(null) }),
        missing: v('theirs only'),
      }),
    );
    expect(report.fields.map((f) => [f.name, f.matched, f.total, f.valuedMatched, f.valuedTotal])).toEqual([
      ['date', 1, 1, 1, 1],
      ['total', 0, 1, 0, 1],
      ['tip', 1, 1, 0, 0],
      ['address', 1, 2, 1, 1],
    ]);
    expect(report).toMatchObject({ matched: 3, total: 5, valuedMatched: 2, valuedTotal: 3, accuracy: 0.6 });
    expect(report.onlyInReference).toEqual(['missing']);
    expect(report.onlyInOurs).toEqual(['extra']);
    expect(report.fields[1]?.differences).toEqual(['total: 10 ≠ 12']);
    expect(report.fields[3]?.differences).toEqual(['address.state: "NY" ≠ null']);
  });

  it('matches list items by best pairs, whatever their order, and counts missing and extra items', () => {
    const report = scoreExtraction(
      response({
        refs: items(v('B'), v('A'), v('C')),
        rows: items(
          obj({ description: v('Labor'), total: v(45) }),
          obj({ description: v('Cables'), total: v(100) }),
        ),
        none: items(),
      }),
      response({
        refs: items(v('A'), v('B')),
        rows: items(
          obj({ description: v('Cables'), total: v(100) }),
          obj({ description: v('Pedals'), total: v(50) }),
          obj({ description: v('Labor'), total: v(45) }),
        ),
        none: items(),
      }),
    );
    const [refs, rows, none] = report.fields;
    // A and B matched, C extra: 2 of 3 units.
    expect(refs).toMatchObject({ matched: 2, total: 3, valuedMatched: 2, valuedTotal: 2 });
    // Cables and Labor matched (4 units), Pedals missing (2 units).
    expect(rows).toMatchObject({ matched: 4, total: 6, valuedMatched: 4, valuedTotal: 6 });
    expect(rows?.differences).toEqual(['rows[1]: missing {"description":"Pedals","total":50}']);
    expect(none).toMatchObject({ matched: 1, total: 1, valuedTotal: 0 });
  });

  it('compares a recorded result with itself perfectly, and prints a table', async () => {
    const sample = SAMPLE_DOCUMENTS[0];
    if (!sample) throw new Error('no sample');
    const reference = await loadReference(sample);
    const report = scoreExtraction(reference, reference);
    expect(report.accuracy).toBe(1);
    expect(report.valuedMatched).toBe(report.valuedTotal);
    expect(formatReport(report)).toMatch(
      /^TOTAL\s+(\d+)\/\1\s+(\d+)\/\2 {2}\(100% all, 100% of printed values\)$/m,
    );
  });
});

describe('v1ToExtraction', () => {
  it('restates a v1 receipt in the v2 names and units of our models', async () => {
    const body: unknown = JSON.parse(
      await readFile(samplePath('v1/products/expense_receipts/response_v5/complete.json'), 'utf8'),
    );
    const { fields } = v1ToExtraction(body).inference.result;
    expect(fields).toMatchObject({
      date: { value: '2016-02-26' },
      total_amount: { value: 10.2 },
      tips_gratuity: { value: null },
      purchase_category: { value: 'food' },
      document_type: { value: 'receipt' },
      supplier_address: { fields: { complete: { value: '34 Kingley Street W1B 50H' } } },
      locale: { fields: { language: { value: 'en' }, country: { value: 'GB' }, currency: { value: 'GBP' } } },
      taxes: { items: [{ fields: { rate: { value: 0.2 }, base: { value: 8.5 }, amount: { value: 1.7 } } }] },
      line_items: {
        items: [
          {
            fields: {
              description: { value: 'Meantime Pale' },
              quantity: { value: 2 },
              total_price: { value: 10.2 },
            },
          },
        ],
      },
    });
  });

  it('keeps the parts of v1 addresses', async () => {
    const sample = SAMPLE_DOCUMENTS.find((s) => s.reference.includes('invoices'));
    if (!sample) throw new Error('no sample');
    const { fields } = (await loadReference(sample)).inference.result;
    expect(fields['customer_address']).toMatchObject({
      fields: {
        city: { value: 'Toronto' },
        postal_code: { value: 'M6P 3K9' },
        value: { value: expect.stringMatching(/^1954/) },
      },
    });
  });
});
