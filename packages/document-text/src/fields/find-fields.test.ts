/**
 * The finder on hand-placed words (testing/fields-layout.ts), one rule at a time: labels and
 * positions, confidence, guidelines, text context, every type. Real PDFs: extract-fields-pdf.test.ts.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import { loadModelCatalog } from '@extraction-review/reference/models/model-catalog';
import {
  CHAR,
  field,
  findOnPages,
  layoutPage as page,
  list,
  object,
  simple,
  valuesOf,
} from '@extraction-review/test-kit/reference/fields-layout';

let invoiceFields: FieldSchema[];
beforeAll(async () => {
  const catalog = await loadModelCatalog(
    path.join(import.meta.dirname, '..', '..', '..', '..', 'server', 'reference', 'models.json'),
  );
  invoiceFields = catalog.models[0]?.data_schema.fields ?? [];
});

const find = (
  pages: Parameters<typeof findOnPages>[0],
  fields: FieldSchema[] = invoiceFields,
  context?: string,
) => findOnPages(pages, fields, context);

describe('labels and positions', () => {
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

  it('does not take a longer label for a shorter one ("Due date", "Total tax", "VAT Net")', () => {
    const fields = find([
      page(0, [
        ['Due date: 2024-04-14', 0.1, 0.1],
        ['Date: 2024-03-14', 0.1, 0.2],
        ['Total tax: 10.00', 0.1, 0.3],
        ['Total: 110.00', 0.1, 0.4],
      ]),
    ]);
    expect(simple(fields['date'])).toMatchObject({ value: '2024-03-14', confidence: 'Certain' });
    expect(simple(fields['due_date'])).toMatchObject({ value: '2024-04-14', confidence: 'Certain' });
    expect(simple(fields['total_amount'])).toMatchObject({ value: 110, confidence: 'Certain' });
    expect(simple(fields['total_tax'])).toMatchObject({ value: 10, confidence: 'Certain' });
  });

  it('prefers the value under a heading to text across a tab stop ("Bill To      Ship To")', () => {
    const fields = find([
      page(0, [
        ['Bill To', 0.1, 0.1],
        ['Ship To', 0.5, 0.1],
        ['Jane Doe', 0.1, 0.12],
        ['John Roe', 0.5, 0.12],
      ]),
    ]);
    expect(simple(fields['customer_name'])).toMatchObject({ value: 'Jane Doe', confidence: 'High' });
  });

  it('reads a value that drifted onto the next line of a slanted photo', () => {
    const fields = find([
      page(0, [
        ['Total', 0.1, 0.5],
        ['42.00', 0.6, 0.49],
      ]),
    ]);
    expect(simple(fields['total_amount'])).toMatchObject({ value: 42, confidence: 'High' });
  });

  it('matches labels glued or misread by OCR', () => {
    const fields = find([
      page(0, [
        ['DueDate: 2024-04-14', 0.1, 0.1],
        ['P.0.#: 2412/2019', 0.1, 0.2],
      ]),
    ]);
    expect(simple(fields['due_date'])).toMatchObject({ value: '2024-04-14', confidence: 'Medium' });
    expect(list(fields['reference_numbers']).items).toMatchObject([
      { value: '2412/2019', confidence: 'Medium' },
    ]);
  });
});

describe('confidence', () => {
  it('gives a variant label (a synonym not in the schema) Medium', () => {
    const fields = find([page(0, [['Invoice num: B-77', 0.1, 0.1]])]);
    expect(simple(fields['invoice_number'])).toMatchObject({ value: 'B-77', confidence: 'Medium' });
  });

  it('gives a misspelt label Medium at best', () => {
    const fields = find([page(0, [['Invoce number: X-1', 0.1, 0.1]])]);
    expect(simple(fields['invoice_number'])).toMatchObject({ value: 'X-1', confidence: 'Medium' });
  });

  it('caps an ambiguous reading at Medium', () => {
    const fields = find([page(0, [['Date: 03/04/2025', 0.1, 0.1]])]);
    expect(simple(fields['date'])).toMatchObject({ value: '2025-04-03', confidence: 'Medium' });
  });

  it('reads ambiguous dates in the order the other dates of the document show', () => {
    const fields = find([
      page(0, [
        ['Date: 11/02/2019', 0.1, 0.1],
        ['Due date: 26/02/2019', 0.1, 0.2],
      ]),
    ]);
    expect(simple(fields['date'])).toMatchObject({ value: '2019-02-11', confidence: 'Certain' });
    const us = find([
      page(0, [
        ['Date: 11/02/2019', 0.1, 0.1],
        ['Due date: 02/26/2019', 0.1, 0.2],
      ]),
    ]);
    expect(simple(us['date'])).toMatchObject({ value: '2019-11-02' });
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

  it('takes the reading confidence of OCR words into account', () => {
    const read = (confidence: number) =>
      simple(
        find([page(0, [{ text: 'Invoice number: INV-1', x: 0.1, y: 0.1, confidence }])])['invoice_number'],
      );
    expect(read(1).confidence).toBe('Certain');
    expect(read(0.9).confidence).toBe('High');
    expect(read(0.7).confidence).toBe('Medium');
    expect(read(0.4).confidence).toBe('Low');
  });

  it('answers a field it cannot find as null without locations: Medium when no label is seen, Low when one is', () => {
    const fields = find([
      page(0, [
        ['Hello world', 0.1, 0.1],
        ['Date: soon', 0.1, 0.2],
      ]),
    ]);
    expect(fields['invoice_number']).toEqual({ value: null, locations: [], confidence: 'Medium' });
    expect(fields['date']).toEqual({ value: null, locations: [], confidence: 'Low' });
  });

  it('answers every field of a document without words as null, Low', () => {
    const fields = find([page(0, [])]);
    expect(fields['invoice_number']).toEqual({ value: null, locations: [], confidence: 'Low' });
    expect(fields['line_items']).toEqual({ items: [], confidence: 'Low' });
    expect(fields['document_type']).toEqual({ value: null, locations: [], confidence: 'Low' });
    expect(object(fields['customer_address']).fields['city']).toEqual({
      value: null,
      locations: [],
      confidence: 'Low',
    });
  });
});

describe('guidelines', () => {
  const invoiceId = field({
    name: 'invoice_id',
    type: 'string',
    guidelines: 'Labelled "Ref". Starts with "INV", e.g. "INV-0001".',
  });

  it('finds a value by its expected prefix when it has no label, and doubts a labelled one without it', () => {
    expect(
      simple(find([page(0, [['Thanks for order INV-7781', 0.1, 0.1]])], [invoiceId])['invoice_id']),
    ).toMatchObject({
      value: 'INV-7781',
      confidence: 'Medium',
    });
    expect(simple(find([page(0, [['Ref: 9981', 0.1, 0.1]])], [invoiceId])['invoice_id'])).toMatchObject({
      value: '9981',
      confidence: 'Medium',
    });
    // The example is not a label.
    expect(simple(find([page(0, [['INV-0001: 5', 0.1, 0.1]])], [invoiceId])['invoice_id']).value).not.toBe(
      '5',
    );
  });

  it('reads numeric dates in the order the guidelines state', () => {
    const us = field({ name: 'date', type: 'date', guidelines: 'Printed as MM/DD/YYYY.' });
    expect(simple(find([page(0, [['Date: 03/04/2025', 0.1, 0.1]])], [us])['date'])).toMatchObject({
      value: '2025-03-04',
      confidence: 'Certain',
    });
  });

  it('answers percentages as fractions when the guidelines say so', () => {
    const rate = field({ name: 'vat_rate', type: 'number', guidelines: 'As a fraction: 5% is 0.05.' });
    const percent = field({
      name: 'discount_rate',
      title: 'Discount',
      type: 'number',
      description: 'In percent.',
    });
    const fields = find(
      [
        page(0, [
          ['Vat rate: 20%', 0.1, 0.1],
          ['Discount: 12.5 %', 0.1, 0.2],
        ]),
      ],
      [rate, percent],
    );
    expect(simple(fields['vat_rate'])).toMatchObject({ value: 0.2, confidence: 'Certain' });
    expect(simple(fields['discount_rate'])).toMatchObject({ value: 12.5 });
  });

  it('takes an unlabelled value at the top of the page when the guidelines say it is printed there', () => {
    const fields = find([
      page(0, [
        ['INVOICE', 0.7, 0.03],
        ['Blue Harbour Bakery', 0.1, 0.05],
        ['12 Quay Street', 0.1, 0.07],
        ['Invoice #: 5', 0.6, 0.2],
      ]),
    ]);
    expect(simple(fields['supplier_name'])).toMatchObject({
      value: 'Blue Harbour Bakery',
      confidence: 'Medium',
    });
  });

  it('takes an unlabelled date when the guidelines allow it, and leaves other fields their labelled values', () => {
    const date = field({ name: 'date', type: 'date', guidelines: 'Often printed without a label.' });
    const due = field({ name: 'due_date', type: 'date' });
    const fields = find(
      [
        page(0, [
          ['Due date: 2016-03-26', 0.1, 0.1],
          ['26 Feb 2016 15:20', 0.1, 0.2],
        ]),
      ],
      [date, due],
    );
    expect(simple(fields['date'])).toMatchObject({ value: '2016-02-26', confidence: 'Medium' });
    expect(simple(fields['due_date'])).toMatchObject({ value: '2016-03-26', confidence: 'Certain' });
  });
});

describe('text context', () => {
  it('raises the confidence of the reading it names and lowers the others', () => {
    const variant = [page(0, [['Invoice num: B-77', 0.1, 0.1]])];
    expect(simple(find(variant)['invoice_number']).confidence).toBe('Medium');
    expect(
      simple(find(variant, invoiceFields, 'The invoice number is B-77.')['invoice_number']),
    ).toMatchObject({
      value: 'B-77',
      confidence: 'High',
    });
    const exact = [page(0, [['Invoice number: B-77', 0.1, 0.1]])];
    expect(simple(find(exact)['invoice_number']).confidence).toBe('Certain');
    expect(simple(find(exact, invoiceFields, 'invoice number: C-1')['invoice_number'])).toMatchObject({
      value: 'B-77',
      confidence: 'High',
    });
  });

  it('finds a value it names when no label does', () => {
    const fields = find(
      [page(0, [['Welcome to ACME Corp, since 1950', 0.1, 0.3]])],
      invoiceFields,
      'The supplier is ACME Corp.',
    );
    expect(simple(fields['supplier_name'])).toMatchObject({ value: 'ACME Corp', confidence: 'Medium' });
  });

  it('counts as evidence for a classification', () => {
    const fields = find([page(0, [['Total: 12.00', 0.1, 0.1]])], invoiceFields, 'amounts are in EUR');
    expect(object(fields['locale']).fields['currency']).toMatchObject({ value: 'EUR', locations: [] });
    expect(simple(object(fields['locale']).fields['currency']).confidence).toBe('Medium');
  });
});

describe('classification', () => {
  const kind = field({
    name: 'kind',
    type: 'classification',
    classification_values: ['invoice', 'credit_note', 'receipt'],
    guidelines: '"credit_note" for "credit note", "avoir"; "receipt" for "ticket". Otherwise "invoice".',
  });

  it('reads a labelled value or synonym, answered as the schema spells it', () => {
    const fields = find([page(0, [['Kind: Avoir', 0.1, 0.1]])], [kind]);
    expect(simple(fields['kind'])).toMatchObject({ value: 'credit_note', confidence: 'Certain' });
  });

  it('votes with the values and synonyms printed', () => {
    const fields = find(
      [
        page(0, [
          ['CREDIT NOTE', 0.6, 0.05],
          ['This credit note cancels ticket 5', 0.1, 0.3],
          ['credit note total: 5.00', 0.1, 0.4],
        ]),
      ],
      [kind],
    );
    expect(simple(fields['kind'])).toMatchObject({ value: 'credit_note', confidence: 'High' });
    // Located where it is printed largest (all equal here: the first).
    expect(simple(fields['kind']).locations[0]?.polygon[0]).toEqual([0.6, 0.05]);
  });

  it('falls back to the guidelines default, Low, and never answers outside the list', () => {
    expect(simple(find([page(0, [['Hello', 0.1, 0.1]])], [kind])['kind'])).toEqual({
      value: 'invoice',
      locations: [],
      confidence: 'Low',
    });
    const strict = field({ name: 'colour', type: 'classification', classification_values: ['red', 'blue'] });
    expect(simple(find([page(0, [['Colour: green', 0.1, 0.1]])], [strict])['colour'])).toMatchObject({
      value: null,
    });
  });

  it('matches short codes in capitals only: "us" is a word, "US" a code', () => {
    const country = field({ name: 'country', type: 'classification', classification_values: ['US', 'GB'] });
    expect(simple(find([page(0, [['Contact us today', 0.1, 0.1]])], [country])['country']).value).toBeNull();
    expect(simple(find([page(0, [['Made in US', 0.1, 0.1]])], [country])['country']).value).toBe('US');
  });
});

describe('boolean', () => {
  const paid = field({
    name: 'paid',
    title: 'Paid',
    type: 'boolean',
    description: 'Whether the invoice is marked "PAID IN FULL".',
  });

  it.each([
    ['Paid: yes', true, 'Certain'],
    ['Paid: N', false, 'Certain'],
    ['PAID IN FULL', true, 'High'],
    // "NOT" also reads as the start of a longer label: Medium.
    ['NOT PAID', false, 'Medium'],
    ['☐ Paid', false, 'High'],
    ['☒ Paid', true, 'Certain'],
    ['Nothing to see', false, 'Low'],
  ] as const)('%s → %s (%s)', (text, value, confidence) => {
    expect(simple(find([page(0, [[text, 0.1, 0.1]])], [paid])['paid'])).toMatchObject({ value, confidence });
  });

  it('is null when there is nothing to read', () => {
    expect(simple(find([page(0, [])], [paid])['paid'])).toMatchObject({ value: null });
  });
});

describe('arrays and objects', () => {
  const references = field({
    title: 'Reference',
    name: 'reference',
    is_array: true,
    type: 'string',
    guidelines: 'Labelled "Ref".',
  });

  it('lists every labelled value in reading order; unique_values merges equal ones', () => {
    const pages = [
      page(0, [
        ['Reference: A-1', 0.1, 0.1],
        ['Ref: B-2', 0.1, 0.2],
        ['Reference: a-1', 0.1, 0.3],
      ]),
    ];
    expect(list(find(pages, [references])['reference'])).toMatchObject({
      items: [{ value: 'A-1' }, { value: 'B-2' }, { value: 'a-1' }],
      confidence: 'Certain',
    });
    const unique = { ...references, unique_values: true };
    expect(list(find(pages, [unique])['reference']).items.map((i) => 'value' in i && i.value)).toEqual([
      'A-1',
      'B-2',
    ]);
  });

  it('reads an address block under its label, part by part', () => {
    const fields = find([
      page(0, [
        ['Bill to:', 0.1, 0.3],
        ['Invoice #: 7', 0.6, 0.3],
        ['Jessie M Horne', 0.1, 0.32],
        ['4312 Wood Road', 0.1, 0.34],
        ['Suite 5', 0.1, 0.36],
        ['New York, NY 10031', 0.1, 0.38],
        ['USA', 0.1, 0.4],
        ['Thank you!', 0.1, 0.5],
      ]),
    ]);
    const address = object(fields['customer_address']);
    expect(valuesOf(address)).toEqual({
      street_number: '4312',
      street_name: 'Wood Road',
      po_box: null,
      address_complement: 'Suite 5',
      city: 'New York',
      postal_code: '10031',
      state: 'NY',
      country: 'USA',
      value: 'Jessie M Horne\n4312 Wood Road\nSuite 5\nNew York, NY 10031\nUSA',
    });
    // Parts read by shape (the city before the state) are Medium at best.
    expect(address.confidence).toBe('Medium');
    expect(simple(address.fields['postal_code']).confidence).toBe('High');
    // The object and its multi-line value are located by the union box of the block.
    const [location] = address.locations;
    expect(address.locations).toHaveLength(1);
    expect(location?.page).toBe(0);
    const expected = [
      [0.1, 0.32],
      [0.1 + 18 * CHAR, 0.32],
      [0.1 + 18 * CHAR, 0.415],
      [0.1, 0.415],
    ];
    location?.polygon.forEach(([x, y], k) => {
      expect(x).toBeCloseTo(expected[k]?.[0] ?? NaN, 9);
      expect(y).toBeCloseTo(expected[k]?.[1] ?? NaN, 9);
    });
    expect(simple(address.fields['value']).locations).toEqual(address.locations);
    expect(simple(fields['customer_name'])).toMatchObject({ value: 'Jessie M Horne', confidence: 'High' });
  });

  it('reads the letterhead at the top as the supplier address, without the name', () => {
    const fields = find([
      page(0, [
        ['John Smith', 0.1, 0.03],
        ['INVOICE', 0.7, 0.03],
        ['W1B 5QH London', 0.7, 0.2],
        ['4490 Oak Drive', 0.1, 0.06],
        ['Albany, NY 12210', 0.1, 0.08],
        ['Tel 555-1234', 0.1, 0.1],
      ]),
    ]);
    expect(simple(fields['supplier_name']).value).toBe('John Smith');
    expect(valuesOf(object(fields['supplier_address']))).toMatchObject({
      street_number: '4490',
      street_name: 'Oak Drive',
      city: 'Albany',
      state: 'NY',
      postal_code: '12210',
      complete: '4490 Oak Drive\nAlbany, NY 12210',
    });
  });

  it('reads Canadian and UK postcodes and a city ending the line above', () => {
    const fields = find([
      page(0, [
        ['Bill to', 0.1, 0.3],
        ['156 University Ave, Toronto', 0.1, 0.32],
        ['ON, Canada, M5H 2H7', 0.1, 0.34],
      ]),
    ]);
    expect(valuesOf(object(fields['customer_address']))).toMatchObject({
      street_number: '156',
      street_name: 'University Ave',
      city: 'Toronto',
      state: 'ON',
      postal_code: 'M5H 2H7',
      country: 'Canada',
    });
  });

  it('searches the sub-fields of an object without a block over the whole document', () => {
    const payment = field({
      name: 'payment',
      type: 'nested_object',
      nested_fields: [
        { name: 'iban', title: 'IBAN', type: 'string' },
        { name: 'paid', title: 'Paid', type: 'boolean' },
      ],
    });
    const fields = find([page(0, [['IBAN: FR76 3000', 0.1, 0.3]])], [payment]);
    expect(object(fields['payment']).fields).toMatchObject({
      iban: { value: 'FR76 3000', confidence: 'Certain' },
      paid: { value: false, confidence: 'Low' },
    });
  });

  it('does not read object_detection or barcode fields: null, not computed', () => {
    const fields = find(
      [page(0, [['Logo: ACME', 0.1, 0.1]])],
      [
        field({ name: 'logo', type: 'object_detection' }),
        field({ name: 'code', type: 'barcode', is_array: true }),
      ],
    );
    expect(fields['logo']).toEqual({ value: null, locations: [], confidence: null });
    expect(fields['code']).toEqual({ items: [], confidence: null });
  });
});

describe('tables', () => {
  const table = [
    ['QTY     DESCRIPTION                UNIT PRICE     AMOUNT', 0.05, 0.3],
    ['1       Front and rear brake cables     100.00     100.00', 0.05, 0.33],
    ['2       New set of pedal arms            25.00      50.00', 0.05, 0.36],
    ['        with grips', 0.05, 0.375],
    ['3       Labor 3hrs                       15.00      47.00', 0.05, 0.41],
    ['                               Subtotal          197.00', 0.05, 0.45],
    ['                               Sales Tax 5.0%      9.85', 0.05, 0.48],
  ] as [string, number, number][];

  it('reads line items by the columns of their header row, until the totals', () => {
    const fields = find([page(0, table)]);
    const rows = list(fields['line_items']).items.map((row) => valuesOf(object(row)));
    expect(rows).toEqual([
      expect.objectContaining({
        quantity: 1,
        description: 'Front and rear brake cables',
        unit_price: 100,
        total_price: 100,
      }),
      expect.objectContaining({
        quantity: 2,
        description: 'New set of pedal arms with grips',
        unit_price: 25,
        total_price: 50,
      }),
      expect.objectContaining({ quantity: 3, description: 'Labor 3hrs', unit_price: 15, total_price: 47 }),
    ]);
    expect(rows[0]).toMatchObject({ product_code: null, tax_rate: null });
  });

  it('is Certain of rows whose quantity × unit price is their total, and doubts the others', () => {
    const rows = list(find([page(0, table)])['line_items']).items.map(object);
    expect(simple(rows[0]?.fields['total_price']).confidence).toBe('Certain');
    expect(simple(rows[2]?.fields['total_price']).confidence).toBe('Medium');
    expect(simple(rows[0]?.fields['description']).confidence).toBe('High');
    // A row is located by the union box of its cells; the list has no locations.
    expect(rows[0]?.locations).toHaveLength(1);
    expect(list(find([page(0, table)])['line_items'])).not.toHaveProperty('locations');
  });

  it('does not take a column title for a label of another field', () => {
    const fields = find([page(0, table)]);
    expect(simple(fields['total_amount']).value).toBeNull();
    expect(simple(fields['total_net'])).toMatchObject({ value: 197, confidence: 'Certain' });
  });

  it('reads taxes from summary lines: rate, base from the line above, amount', () => {
    const taxes = list(find([page(0, table)])['taxes']).items.map((t) => valuesOf(object(t)));
    expect(taxes).toEqual([{ rate: 0.05, base: 197, amount: 9.85 }]);
  });

  it('merges the lines of one tax rate and skips total lines', () => {
    const fields = find([
      page(0, [
        ['20% VAT Net          8.50', 0.1, 0.3],
        ['20% VAT              1.70', 0.1, 0.32],
        ['20% VAT Total       10.20', 0.1, 0.34],
        ['VAT 232 153 895', 0.1, 0.5],
      ]),
    ]);
    expect(list(fields['taxes']).items.map((t) => valuesOf(object(t)))).toEqual([
      { rate: 0.2, base: 8.5, amount: 1.7 },
    ]);
    expect(simple(fields['total_tax'])).toMatchObject({ value: 1.7 });
  });
});
