/**
 * Field finding on real PDFs drawn with pdf-lib, through `extractResult` with the PDF text-layer
 * extractor: every type on a two-page invoice, polygons checked against where pdf-lib drew the words
 * (its own font metrics, tolerance 0.01 as in extraction.test.ts), the shapes against the app's own
 * response schema, the text context, the options, and a blank PDF.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActiveOptions, ExtractionResult, FieldResult } from '../api-types';
import type { FieldSchema } from '@extraction-review/contract/v2/field-schema';
import { loadModelCatalog } from '@extraction-review/reference/models/model-catalog';
import { expectExtractionResponse } from '@extraction-review/test-kit/reference/contract';
import { field, list, object, simple, valuesOf } from '@extraction-review/test-kit/reference/fields-layout';
import {
  generatePdf,
  type ExpectedBox,
  type GeneratedPdf,
  type PageSpec,
} from '@extraction-review/test-kit/reference/generate-pdf';
import { extractResult } from '../extract-result';
import { PdfTextExtractor } from '../pdf-text-extractor';

const TOLERANCE = 0.01;
const ALL_ON: ActiveOptions = {
  raw_text: true,
  polygon: true,
  confidence: true,
  rag: false,
  multipage_context: false,
  text_context: false,
  data_schema: { replace: false },
};

let dir: string;
let invoiceFields: FieldSchema[];
let schema: FieldSchema[];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fields-pdf-'));
  const catalog = await loadModelCatalog(
    path.join(import.meta.dirname, '..', '..', '..', '..', 'server', 'reference', 'models.json'),
  );
  invoiceFields = catalog.models[0]?.data_schema.fields ?? [];
  schema = [
    ...invoiceFields,
    field({
      name: 'paid',
      title: 'Paid',
      type: 'boolean',
      description: 'Whether the invoice is stamped "PAID".',
    }),
    field({
      name: 'signed',
      title: 'Signed',
      type: 'boolean',
      description: 'Whether the invoice is signed.',
    }),
    field({
      name: 'customer_id',
      title: 'Customer ID',
      type: 'string',
      description: 'The customer account.',
    }),
    field({ name: 'payment_terms', title: 'Payment terms', type: 'string', description: 'When to pay.' }),
  ];
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let fileCount = 0;
async function extract(pdf: GeneratedPdf, fields: FieldSchema[], textContext?: string, options = ALL_ON) {
  const file = path.join(dir, `document-${++fileCount}.pdf`);
  await writeFile(file, pdf.bytes);
  return extractResult(
    new PdfTextExtractor(),
    { path: file, mimeType: 'application/pdf' },
    fields,
    options,
    undefined,
    { textContext },
  );
}

/** The field's one location is on `page`, a clockwise rectangle over the expected box. */
function expectLocatedAt(result: FieldResult | undefined, page: number, expected: ExpectedBox) {
  const locations = result && 'locations' in result ? result.locations : [];
  expect(locations).toHaveLength(1);
  const [location] = locations;
  expect(location?.page).toBe(page);
  const [[x0, y0] = [], [x1, y1] = [], [x2, y2] = [], [x3, y3] = []] = location?.polygon ?? [];
  // Clockwise on screen from the top-left corner: TL, TR, BR, BL.
  expect([x1, y1, x2, y3]).toEqual([x2, y0, x1, y2]);
  expect([x0, x3]).toEqual([x3, x0]);
  const actual = { x0, y0, x1: x2, y1: y2 };
  for (const key of ['x0', 'y0', 'x1', 'y1'] as const) {
    expect(
      Math.abs((actual[key] ?? NaN) - expected[key]),
      `${key}: ${actual[key]} vs ${expected[key]}`,
    ).toBeLessThan(TOLERANCE);
  }
}

const union = (...boxes: ExpectedBox[]): ExpectedBox => ({
  x0: Math.min(...boxes.map((b) => b.x0)),
  y0: Math.min(...boxes.map((b) => b.y0)),
  x1: Math.max(...boxes.map((b) => b.x1)),
  y1: Math.max(...boxes.map((b) => b.y1)),
});

const line = (text: string, x: number, y: number, size = 10) => ({ text, x, y, size });

const invoice: PageSpec[] = [
  {
    lines: [
      line('Blue Harbour Bakery', 72, 740, 16),
      line('INVOICE', 450, 740, 18),
      line('12 Quay Street', 72, 722),
      line('Portland, OR 97201', 72, 708),
      line('Invoice number: INV-2024-0042', 350, 690),
      line('Date: 03/04/2024', 350, 675),
      line('Due date: 28/04/2024', 350, 660),
      line('PO #: PO-77', 350, 645),
      line('Order #: PO-77', 350, 630),
      line('Reference: REF-9', 350, 615),
      line('Bill to', 72, 660),
      line('Jessie M Horne', 72, 646),
      line('4312 Wood Road', 72, 632),
      line('New York, NY 10031', 72, 618),
      line('Qty', 72, 520),
      line('Description', 110, 520),
      line('Unit price', 380, 520),
      line('Amount', 480, 520),
      line('2', 72, 500),
      line('Sourdough loaves', 110, 500),
      line('4.50', 380, 500),
      line('9.00', 480, 500),
      line('1', 72, 485),
      line('Birthday cake', 110, 485),
      line('35.00', 380, 485),
      line('$35.00', 480, 485),
      line('with candles', 110, 473),
      line('3', 72, 455),
      line('Croissants', 110, 455),
      line('1.20', 380, 455),
      line('3.60', 480, 455),
      line('Subtotal', 380, 420),
      line('47.60', 480, 420),
      line('Sales tax 10%', 380, 405),
      line('4.76', 480, 405),
      line('Total', 380, 390),
      line('$52.36', 480, 390),
      line('Not signed', 72, 300),
    ],
  },
  {
    lines: [
      line('Client ID: C-123', 72, 700),
      line('Payment terms: 30 days', 72, 680),
      line('PAID', 400, 600, 24),
    ],
  },
];

describe('an invoice PDF with every kind of field', () => {
  let pdf: GeneratedPdf;
  let fields: ExtractionResult['fields'];
  beforeAll(async () => {
    pdf = await generatePdf(invoice);
    const out = await extract(pdf, schema);
    fields = out.result.fields;
    expect(out.pageCount).toBe(2);
    expect(out.pages).toHaveLength(2);
  });

  it('answers the shapes of the app contract (simple, object, list; no locations on lists)', async () => {
    const out = await extract(pdf, schema);
    const inference = {
      id: '00000000-0000-4000-8000-000000000001',
      job: { id: '00000000-0000-4000-8000-000000000002' },
      model: { id: '00000000-0000-4000-8000-000000000003' },
      file: { name: 'invoice.pdf', alias: null, page_count: out.pageCount, mime_type: 'application/pdf' },
      result: out.result,
      active_options: ALL_ON,
    };
    expectExtractionResponse({ inference });
    expect(fields['line_items']).not.toHaveProperty('locations');
    expect(fields['taxes']).not.toHaveProperty('locations');
  });

  it('reads simple values with their polygons where pdf-lib drew them', () => {
    expect(simple(fields['invoice_number'])).toMatchObject({ value: 'INV-2024-0042', confidence: 'Certain' });
    expectLocatedAt(
      fields['invoice_number'],
      0,
      pdf.boxOf(0, 'Invoice number: INV-2024-0042', 'INV-2024-0042'),
    );
    // 03/04 is read day first because 28/04 can only be: Certain.
    expect(simple(fields['date'])).toMatchObject({ value: '2024-04-03', confidence: 'Certain' });
    expect(simple(fields['due_date'])).toMatchObject({ value: '2024-04-28', confidence: 'Certain' });
    expect(simple(fields['total_amount'])).toMatchObject({ value: 52.36, confidence: 'Certain' });
    expectLocatedAt(fields['total_amount'], 0, pdf.boxOf(0, '$52.36', '$52.36'));
    expect(simple(fields['total_net'])).toMatchObject({ value: 47.6, confidence: 'Certain' });
    expect(simple(fields['total_tax'])).toMatchObject({ value: 4.76, confidence: 'Certain' });
  });

  it('reads the letterhead and the "Bill to" block as address objects', () => {
    expect(simple(fields['supplier_name'])).toMatchObject({
      value: 'Blue Harbour Bakery',
      confidence: 'Medium',
    });
    expect(valuesOf(object(fields['supplier_address']))).toMatchObject({
      street_number: '12',
      street_name: 'Quay Street',
      city: 'Portland',
      state: 'OR',
      postal_code: '97201',
      complete: '12 Quay Street\nPortland, OR 97201',
    });
    const customer = object(fields['customer_address']);
    expect(valuesOf(customer)).toMatchObject({
      street_number: '4312',
      street_name: 'Wood Road',
      city: 'New York',
      state: 'NY',
      postal_code: '10031',
      value: 'Jessie M Horne\n4312 Wood Road\nNew York, NY 10031',
    });
    // A multi-line value: one polygon, the union box of its lines.
    const block = union(
      pdf.boxOf(0, 'Jessie M Horne', 'Jessie M Horne'),
      pdf.boxOf(0, '4312 Wood Road', '4312 Wood Road'),
      pdf.boxOf(0, 'New York, NY 10031', 'New York, NY 10031'),
    );
    expectLocatedAt(customer.fields['value'], 0, block);
    expectLocatedAt(customer.fields['postal_code'], 0, pdf.boxOf(0, 'New York, NY 10031', '10031'));
    expect(simple(fields['customer_name'])).toMatchObject({ value: 'Jessie M Horne', confidence: 'High' });
  });

  it('reads the line-items table, a description over two lines, each cell located', () => {
    const rows = list(fields['line_items']).items.map(object);
    expect(rows.map(valuesOf)).toEqual([
      expect.objectContaining({
        quantity: 2,
        description: 'Sourdough loaves',
        unit_price: 4.5,
        total_price: 9,
      }),
      expect.objectContaining({
        quantity: 1,
        description: 'Birthday cake with candles',
        unit_price: 35,
        total_price: 35,
      }),
      expect.objectContaining({ quantity: 3, description: 'Croissants', unit_price: 1.2, total_price: 3.6 }),
    ]);
    expect(simple(rows[0]?.fields['total_price']).confidence).toBe('Certain');
    expectLocatedAt(rows[2]?.fields['unit_price'], 0, pdf.boxOf(0, '1.20', '1.20'));
    expectLocatedAt(rows[2]?.fields['description'], 0, pdf.boxOf(0, 'Croissants', 'Croissants'));
    expectLocatedAt(
      rows[1]?.fields['description'],
      0,
      union(pdf.boxOf(0, 'Birthday cake', 'Birthday cake'), pdf.boxOf(0, 'with candles', 'with candles')),
    );
    expect(list(fields['line_items']).confidence).toBe('High');
  });

  it('reads taxes, references without duplicates, classifications and booleans', () => {
    expect(list(fields['taxes']).items.map((t) => valuesOf(object(t)))).toEqual([
      { rate: 0.1, base: 47.6, amount: 4.76 },
    ]);
    expect(list(fields['reference_numbers']).items.map((i) => 'value' in i && i.value)).toEqual([
      'PO-77',
      'REF-9',
    ]);
    expect(simple(fields['document_type'])).toMatchObject({ value: 'invoice' });
    expectLocatedAt(fields['document_type'], 0, pdf.boxOf(0, 'INVOICE', 'INVOICE'));
    expect(valuesOf(object(fields['locale']))).toEqual({ language: 'en', country: null, currency: 'USD' });
    expect(simple(fields['signed'])).toMatchObject({ value: false });
    expect(simple(fields['paid'])).toMatchObject({ value: true, confidence: 'High' });
    expectLocatedAt(fields['paid'], 1, pdf.boxOf(1, 'PAID', 'PAID'));
  });

  it('finds fields on the second page, with page index 1', () => {
    expect(simple(fields['payment_terms'])).toMatchObject({ value: '30 days', confidence: 'Certain' });
    expectLocatedAt(fields['payment_terms'], 1, pdf.boxOf(1, 'Payment terms: 30 days', '30 days'));
  });

  it('uses the text context: a value it names is more certain', async () => {
    expect(simple(fields['customer_id'])).toMatchObject({ value: 'C-123', confidence: 'Medium' });
    const withContext = await extract(pdf, schema, 'The customer ID is C-123; amounts are in USD.');
    expect(simple(withContext.result.fields['customer_id'])).toMatchObject({
      value: 'C-123',
      confidence: 'High',
    });
  });

  it('honours the options: no polygon, no locations; no confidence, every confidence null', async () => {
    const out = await extract(pdf, schema, undefined, { ...ALL_ON, polygon: false, confidence: false });
    const row = object(list(out.result.fields['line_items']).items[0]);
    expect(row.locations).toEqual([]);
    expect(row.confidence).toBeNull();
    expect(simple(row.fields['quantity'])).toEqual({ value: 2, locations: [], confidence: null });
    expect(list(out.result.fields['line_items']).confidence).toBeNull();
    expect(object(out.result.fields['customer_address']).locations).toEqual([]);
  });
});

describe('a blank PDF', () => {
  it('is no error: every field null, raw text empty', async () => {
    const out = await extract(await generatePdf([{ drawBox: true }]), invoiceFields);
    expect(out.pageCount).toBe(1);
    expect(out.result.raw_text).toEqual({ pages: [{ content: '' }] });
    for (const [name, result] of Object.entries(out.result.fields)) {
      if ('value' in result) expect(result.value, name).toBeNull();
      if ('items' in result) expect(result.items, name).toEqual([]);
      if ('fields' in result)
        expect(
          Object.values(result.fields).every((f) => 'value' in f && f.value === null),
          name,
        ).toBe(true);
    }
  });
});
