import { describe, expect, it } from 'vitest';
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import type {
  FieldLocation,
  FieldResult,
  SimpleFieldResult,
} from '@extraction-review/document-text/api-types';
import { acmeInvoice, laidOut, type LayoutLine } from '@extraction-review/test-kit/reference/rag-layout';
import { applyValidatedValues } from './apply-validated-values';

/** The polygon of a box, as the service writes it (clockwise from the top-left). */
const at = (page: number, x0: number, y0: number, x1: number, y1: number): FieldLocation => ({
  page,
  polygon: [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ],
});

/** The box a line of the test layout gives `chars` characters starting `offset` characters in. */
const textAt = (page: number, x: number, y: number, offset: number, chars: number): FieldLocation =>
  at(page, x + offset * 0.01, y, x + (offset + chars) * 0.01, y + 0.02);

const simple = (
  value: SimpleFieldResult['value'],
  locations: FieldLocation[] = [],
  confidence: SimpleFieldResult['confidence'] = 'Medium',
): SimpleFieldResult => ({ value, locations, confidence });

/** Deep copy with numbers rounded: boxes are sums of character widths, so 0.27 may be 0.26999…. */
function round<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
    typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v,
  ) as T;
}

const expectSame = (actual: unknown, expected: unknown): void =>
  expect(round(actual)).toEqual(round(expected));

const notFound = (): SimpleFieldResult => ({ value: null, locations: [], confidence: 'Low' });

const pagesOf = (...pages: (LayoutLine | string)[][]) => laidOut(pages);

/** The new document: an ACME invoice, other values than the validated one. */
const newInvoice = pagesOf(
  acmeInvoice({
    number: 'INV-2025-017',
    date: '02.04.2025',
    customer: 'Umbrella Logistics SA',
    items: [
      ['Copper wire 100m', '83.50'],
      ['Cable ties', '18.90'],
    ],
    total: '102.40',
  }),
);

describe('applyValidatedValues', () => {
  it('takes a validated text found in the new document, with the words’ polygon, Certain when unique', () => {
    const extracted = { supplier_name: simple('ACME Industrial', [textAt(0, 0.05, 0.05, 0, 15)], 'Medium') };
    const validated: FieldMap = {
      supplier_name: simple('ACME Industrial Supplies GmbH', [textAt(0, 0.05, 0.05, 0, 29)], 'Certain'),
    };
    expectSame(applyValidatedValues(extracted, validated, newInvoice), {
      supplier_name: simple('ACME Industrial Supplies GmbH', [textAt(0, 0.05, 0.05, 0, 29)], 'Certain'),
    });
  });

  it('compares texts without case, accents or punctuation, and follows a value over two lines', () => {
    const pages = pagesOf([
      { text: 'Pay to: IBAN CH93 0076', x: 0.05, y: 0.5 },
      { text: '2011 6238 5295 7.', x: 0.05, y: 0.53 },
    ]);
    const result = applyValidatedValues(
      { iban: notFound() },
      { iban: simple('ch93-0076-2011-6238-5295-7', [], 'Certain') },
      pages,
    );
    expectSame(
      result['iban'],
      simple(
        'ch93-0076-2011-6238-5295-7',
        [textAt(0, 0.05, 0.5, 13, 9), textAt(0, 0.05, 0.53, 0, 17)],
        'Certain',
      ),
    );
  });

  it('keeps what extraction found when the validated value is not in the new text', () => {
    const extracted = { customer: simple('Umbrella Logistics SA', [textAt(0, 0.05, 0.18, 0, 21)], 'High') };
    const validated: FieldMap = { customer: simple('Initech Holdings AG', [textAt(0, 0.05, 0.18, 0, 19)]) };
    const result = applyValidatedValues(extracted, validated, newInvoice);
    expect(result['customer']).toBe(extracted.customer);
  });

  it('takes a number (any printed form) only at the same place as in the validated document', () => {
    // Validated: 83.5 at the place of the total. The new invoice has 83.50 as a line amount only.
    const validatedTotal: FieldMap = { total: simple(83.5, [textAt(0, 0.55, 0.7, 7, 5)], 'Certain') };
    const extracted = { total: simple(102.4, [textAt(0, 0.55, 0.7, 7, 6)], 'Certain') };
    expect(applyValidatedValues(extracted, validatedTotal, newInvoice)['total']).toBe(extracted.total);

    // Where the validated document had it, within the distance allowed: taken.
    const same = pagesOf([{ text: 'Total: 1 234,50 EUR', x: 0.55, y: 0.72 }]);
    expectSame(
      applyValidatedValues(
        { total: notFound() },
        { total: simple(1234.5, [textAt(0, 0.55, 0.7, 7, 8)]) },
        same,
      )['total'],
      simple(1234.5, [textAt(0, 0.55, 0.72, 7, 8)], 'Certain'),
    );
  });

  it('takes a number with no validated location only when it occurs once', () => {
    const validated: FieldMap = { total: simple(18.9, []) };
    expectSame(
      applyValidatedValues({ total: notFound() }, validated, newInvoice)['total'],
      simple(18.9, [textAt(0, 0.05, 0.31, 11, 5)], 'Certain'),
    );
    const twice = pagesOf(['Subtotal 18.90', 'Total 18.90']);
    const extracted = { total: notFound() };
    expect(applyValidatedValues(extracted, validated, twice)['total']).toBe(extracted.total);
  });

  it('finds a date printed in another form at the same place', () => {
    const pages = pagesOf([{ text: 'Date: 14.03.2025', x: 0.55, y: 0.08 }]);
    const validated: FieldMap = { date: simple('2025-03-14', [textAt(0, 0.55, 0.08, 6, 10)]) };
    expectSame(
      applyValidatedValues({ date: notFound() }, validated, pages)['date'],
      simple('2025-03-14', [textAt(0, 0.55, 0.08, 6, 10)], 'Certain'),
    );
    // Elsewhere on the page, it is another date of the document: not taken.
    const elsewhere = pagesOf([{ text: 'Delivered on 14.03.2025', x: 0.05, y: 0.6 }]);
    expectSame(applyValidatedValues({ date: notFound() }, validated, elsewhere)['date'], notFound());
  });

  it('takes the occurrence nearest to the validated location when a text occurs several times (High)', () => {
    const pages = pagesOf(
      [
        { text: 'Globex Corporation', x: 0.05, y: 0.05 },
        { text: 'Remit to Globex Corporation', x: 0.05, y: 0.9 },
      ],
      [{ text: 'Globex Corporation', x: 0.05, y: 0.9 }],
    );
    const result = applyValidatedValues(
      { supplier: notFound() },
      { supplier: simple('Globex Corporation', [textAt(0, 0.05, 0.9, 9, 18)]) },
      pages,
    );
    expectSame(result['supplier'], simple('Globex Corporation', [textAt(0, 0.05, 0.9, 9, 18)], 'Certain'));
    const noAnchor = applyValidatedValues(
      { supplier: notFound() },
      { supplier: simple('Globex Corporation') },
      pages,
    );
    expectSame(noAnchor['supplier'], simple('Globex Corporation', [textAt(0, 0.05, 0.05, 0, 18)], 'High'));
  });

  it('follows the options: no polygon, no confidence', () => {
    const validated: FieldMap = { supplier_name: simple('ACME Industrial Supplies GmbH') };
    expectSame(
      applyValidatedValues({ supplier_name: notFound() }, validated, newInvoice, {
        polygon: false,
        confidence: false,
      }),
      { supplier_name: { value: 'ACME Industrial Supplies GmbH', locations: [], confidence: null } },
    );
  });

  it('applies inside objects and lists of simple values, and recomputes their confidence', () => {
    const extracted: Record<string, FieldResult> = {
      supplier: {
        fields: { name: notFound(), city: simple('Zurich', [], 'High') },
        locations: [],
        confidence: 'Low',
      },
      references: { items: [simple('INV-2025-017', [], 'High')], confidence: 'High' },
    };
    const validated: FieldMap = {
      supplier: {
        fields: { name: simple('ACME Industrial Supplies GmbH'), city: simple('Basel') },
        locations: [],
        confidence: null,
      },
      references: { items: [simple('Umbrella Logistics SA'), simple('Not in this text')], confidence: null },
    };
    expectSame(applyValidatedValues(extracted, validated, newInvoice), {
      supplier: {
        fields: {
          name: simple('ACME Industrial Supplies GmbH', [textAt(0, 0.05, 0.05, 0, 29)], 'Certain'),
          city: simple('Zurich', [], 'High'),
        },
        locations: [],
        confidence: 'High',
      },
      references: {
        items: [
          simple('Umbrella Logistics SA', [textAt(0, 0.05, 0.18, 0, 21)], 'Certain'),
          simple('INV-2025-017', [], 'High'),
        ],
        confidence: 'High',
      },
    });
  });

  it('keeps lists of objects, booleans, nulls, other shapes and fields the new result lacks', () => {
    const extracted: Record<string, FieldResult> = {
      line_items: { items: [], confidence: 'Low' },
      paid: simple(false),
      note: simple('kept'),
      customer: simple('Umbrella'),
    };
    const validated: FieldMap = {
      line_items: {
        items: [{ fields: { description: simple('Cable ties') }, locations: [], confidence: null }],
        confidence: null,
      },
      paid: simple(true),
      note: simple(null),
      customer: { items: [simple('Umbrella Logistics SA')], confidence: null },
      absent: simple('ACME Industrial Supplies GmbH'),
    };
    const result = applyValidatedValues(extracted, validated, newInvoice);
    expectSame(result, extracted);
    for (const name of Object.keys(extracted)) expect(result[name]).toBe(extracted[name]);
  });
});
