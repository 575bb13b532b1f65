// @vitest-environment node
/**
 * v1DocumentToReview against the recorded v1 responses (`../shared/fixtures/mindee-test-data/v1`): what
 * comes out is a valid v2 result (the schema the review reads), with the input's fields, values, levels,
 * list rows, upright polygons and page turns.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { V1DocumentResponse, V1WebhookBody, type V1Document } from '@extraction-review/contract/v1/schemas';
import {
  ExtractionResponse,
  type FieldLocation,
  type FieldResult,
  type ListFieldResult,
  type ObjectFieldResult,
  type SimpleFieldResult,
} from '@extraction-review/contract/v2/schemas';
import { flattenFields } from '../fields/flatten-fields';
import { buildReviewTree } from '../fields/review-tree';
import { v1PolygonFromUpright } from '../viewer/geometry';
import { v1DocumentToReview } from './v1-to-review';

const v1Dir = path.join(fixturesDir, 'v1');

function load(file: string): V1Document {
  return V1DocumentResponse.parse(JSON.parse(fs.readFileSync(path.join(v1Dir, file), 'utf8'))).document;
}

/** Converted, and read back as the app reads a v2 result: the output must pass the v2 schema. */
function review(document: V1Document, options?: Parameters<typeof v1DocumentToReview>[1]) {
  const out = v1DocumentToReview(document, options);
  const parsed = ExtractionResponse.parse(out.response);
  expect(parsed).toEqual(out.response);
  return { ...out, fields: out.response.inference.result.fields };
}

function simpleAt(field: FieldResult | undefined): SimpleFieldResult {
  if (!field || !('value' in field)) throw new Error(`expected a simple field, got ${JSON.stringify(field)}`);
  return field;
}
function objectAt(field: FieldResult | undefined): ObjectFieldResult {
  if (!field || !('fields' in field))
    throw new Error(`expected an object field, got ${JSON.stringify(field)}`);
  return field;
}
function listAt(field: FieldResult | undefined): ListFieldResult {
  if (!field || !('items' in field)) throw new Error(`expected a list field, got ${JSON.stringify(field)}`);
  return field;
}

/** The v1 polygon of a document-level field, as recorded. */
function recordedPolygon(document: V1Document, name: string, index?: number): number[][] {
  const raw = document.inference.prediction[name];
  const field = Array.isArray(raw) ? raw[index ?? 0] : raw;
  return (field?.polygon?.length ? field.polygon : (field?.bounding_box ?? [])).map(([x, y]) => [x, y]);
}

describe('invoices v4 (products/invoices/response_v4/complete.json)', () => {
  const document = load('products/invoices/response_v4/complete.json');
  const { response, pageRotations, fields } = review(document);
  const { inference } = response;

  it('fills the inference from the document', () => {
    expect(inference.id).toBe('cfb7db81-7dd9-4173-9ff8-2facc27faf06');
    expect(inference.job.id).toBe(inference.id);
    expect(inference.model.id).toBe('mindee/Invoice/v4.11');
    expect(inference.file).toEqual({
      name: 'myfile.jpg',
      alias: null,
      page_count: 1,
      mime_type: 'image/jpeg',
    });
    expect(inference.result.raw_text).toBeNull();
    expect(inference.result.rag).toBeNull();
    expect(inference.active_options).toEqual({
      raw_text: false,
      polygon: true,
      confidence: true,
      rag: false,
      multipage_context: false,
      text_context: false,
      data_schema: { replace: false },
    });
  });

  it('keeps every document-level field, by name', () => {
    expect(Object.keys(fields)).toEqual(Object.keys(document.inference.prediction));
    expect(Object.keys(fields)).toHaveLength(29);
  });

  it('makes a value with a confidence and a polygon a simple field, its level and location', () => {
    expect(simpleAt(fields.total_amount)).toEqual({
      value: 335.18,
      confidence: 'Certain',
      locations: [{ page: 0, polygon: recordedPolygon(document, 'total_amount') }],
    });
    // `raw_value` is the printed form of the value, not a value of its own.
    expect(simpleAt(fields.customer_name).value).toBe('UBER');
    // No confidence, no polygon: nothing is made up.
    expect(simpleAt(fields.document_type)).toEqual({ value: 'INVOICE', confidence: null, locations: [] });
  });

  it('makes a field with extra keys an object: the value first, then each key', () => {
    const locale = objectAt(fields.locale);
    expect(Object.keys(locale.fields)).toEqual(['value', 'country', 'currency', 'language']);
    expect(simpleAt(locale.fields.value).value).toBe('ca-ES');
    expect(simpleAt(locale.fields.currency)).toEqual({ value: 'EUR', confidence: 'Certain', locations: [] });
    expect(simpleAt(locale.fields.language).value).toBe('pt');

    const address = objectAt(fields.supplier_address);
    expect(simpleAt(address.fields.city).value).toBe('Sidney');
    expect(simpleAt(address.fields.street_number).value).toBe('42');
    expect(simpleAt(address.fields.state).value).toBe('');
    // Each component is shown where the address is, with its confidence.
    expect(simpleAt(address.fields.city).locations).toEqual(address.locations);
    expect(address.locations).toHaveLength(1);
  });

  it('makes line items and taxes lists of objects, one row per item, with the item polygon', () => {
    const items = listAt(fields.line_items);
    expect(items.items).toHaveLength(1);
    expect(items.confidence).toBeNull();
    const row = objectAt(items.items[0]);
    expect(Object.keys(row.fields)).toEqual([
      'description',
      'product_code',
      'quantity',
      'tax_amount',
      'tax_rate',
      'total_amount',
      'unit_measure',
      'unit_price',
    ]);
    expect(simpleAt(row.fields.quantity)).toEqual({
      value: 20,
      confidence: 'Certain',
      locations: [{ page: 0, polygon: recordedPolygon(document, 'line_items') }],
    });
    expect(simpleAt(row.fields.unit_price).value).toBe(20.5);

    const tax = objectAt(listAt(fields.taxes).items[0]);
    expect(Object.fromEntries(Object.entries(tax.fields).map(([k, f]) => [k, simpleAt(f).value]))).toEqual({
      value: 23,
      base: 23,
      rate: 8,
    });
  });

  it('keeps lists of plain values simple and lists with keys as objects', () => {
    const references = listAt(fields.reference_numbers);
    expect(simpleAt(references.items[0]).value).toBe('string');
    const registration = objectAt(listAt(fields.supplier_company_registrations).items[0]);
    expect(simpleAt(registration.fields.type).value).toBe('TIN');
    expect(simpleAt(registration.fields.value).value).toBe('123904567');
  });

  it('turns the page by its orientation; polygons, already upright, stay as recorded', () => {
    // orientation 90 with is_rotation_applied: true.
    expect(pageRotations).toEqual([90]);
  });

  it('is what the review tree expects: line items as table rows with their columns', () => {
    const tree = buildReviewTree(fields);
    const lineItems = tree.find((n) => n.path === 'line_items');
    expect(lineItems?.kind).toBe('list');
    if (lineItems?.kind !== 'list') return;
    expect(lineItems.itemKind).toBe('object');
    expect(lineItems.columns.map((c) => c.name)).toContain('unit_price');
    expect(lineItems.items[0]?.path).toBe('line_items[0]');
    const leaves = flattenFields(fields);
    expect(leaves.find((l) => l.path === 'line_items[0].description')?.value).toBe('string');
    expect(leaves.find((l) => l.path === 'locale.currency')?.value).toBe('EUR');
  });
});

describe('expense receipts v5 (products/expense_receipts/response_v5/complete.json)', () => {
  const document = load('products/expense_receipts/response_v5/complete.json');
  const { response, pageRotations, fields } = review(document);

  it('keeps every field, with the product as model id', () => {
    expect(Object.keys(fields)).toEqual(Object.keys(document.inference.prediction));
    expect(Object.keys(fields)).toHaveLength(17);
    expect(response.inference.model.id).toBe('mindee/expense_receipts/v5.3');
    expect(pageRotations).toEqual([0]);
  });

  it('maps each confidence to its level', () => {
    expect(simpleAt(fields.date).confidence).toBe('Certain'); // 0.99
    expect(simpleAt(fields.document_type).confidence).toBe('Certain'); // 1.0
    expect(simpleAt(fields.subcategory).confidence).toBe('Certain'); // 0.98
    expect(objectAt(fields.locale).confidence).toBe('High'); // 0.82
  });

  it('gives a field not found a null value, Low, and no location', () => {
    // `tip`: confidence 0, page_id null, polygon [].
    expect(simpleAt(fields.tip)).toEqual({ value: null, confidence: 'Low', locations: [] });
    // `total_tax` was computed, not read: a value without a page.
    expect(simpleAt(fields.total_tax)).toEqual({ value: 1.7, confidence: 'Certain', locations: [] });
  });

  it('turns the receipt’s line item, taxes and registrations into rows', () => {
    const row = objectAt(listAt(fields.line_items).items[0]);
    expect(simpleAt(row.fields.description).value).toBe('Meantime Pale');
    expect(simpleAt(row.fields.quantity).value).toBe(2);
    expect(simpleAt(row.fields.unit_price).value).toBeNull();
    expect(simpleAt(row.fields.total_amount).locations[0]?.polygon).toEqual(
      recordedPolygon(document, 'line_items'),
    );

    const tax = objectAt(listAt(fields.taxes).items[0]);
    expect(simpleAt(tax.fields.value).value).toBe(1.7);
    expect(simpleAt(tax.fields.rate).value).toBe(20);
    expect(simpleAt(tax.fields.base).value).toBe(8.5);
    expect(simpleAt(tax.fields.code).value).toBe('VAT');

    const registrations = listAt(fields.supplier_company_registrations).items.map(objectAt);
    expect(registrations).toHaveLength(2);
    expect(registrations.map((r) => simpleAt(r.fields.type).value)).toEqual(['VAT NUMBER', 'VAT NUMBER']);
    expect(registrations[1]?.locations[0]?.polygon).toEqual(
      recordedPolygon(document, 'supplier_company_registrations', 1),
    );
  });

  it('gives the viewer one leaf per value, located where the service placed it', () => {
    const leaves = flattenFields(fields);
    const supplier = leaves.find((l) => l.path === 'supplier_name');
    expect(supplier?.locations).toEqual([{ page: 0, polygon: recordedPolygon(document, 'supplier_name') }]);
  });
});

describe('multi-receipts detector: one photo stored four ways', () => {
  const name = (o: number) =>
    `products/multi_receipts_detector/response_v1/complete${o === 0 ? '' : `_${o}`}.json`;
  const upright = review(load(name(0)));
  const receipts = (fields: Record<string, FieldResult>) => listAt(fields.receipts).items.map(simpleAt);

  it('makes each detected receipt a row: no value, its box, its level', () => {
    const rows = receipts(upright.fields);
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.value).toBeNull();
      expect(row.confidence).toBe('Certain');
      expect(row.locations).toHaveLength(1);
    }
  });

  it.each([90, 180, 270])(
    'at %i degrees: the page turns upright and the boxes match the upright photo’s',
    (o) => {
      const turned = review(load(name(o)));
      expect(turned.pageRotations).toEqual([o]);
      expect(receipts(turned.fields).map((r) => r.locations)).toEqual(
        receipts(upright.fields).map((r) => r.locations),
      );
    },
  );

  it('turns raw-frame polygons upright when the service did not (is_rotation_applied: false)', () => {
    // What the service would answer for default_sample_90.jpg without applying the turn: the upright
    // boxes in the stored photo's frame (geometry.ts's inverse, as v1-orientation.test.ts checks on pixels).
    const document = load(name(90));
    const raw = structuredClone(document);
    raw.inference.is_rotation_applied = false;
    const list = raw.inference.prediction.receipts;
    if (!Array.isArray(list)) throw new Error('no receipts');
    for (const receipt of list) {
      receipt.bounding_box = v1PolygonFromUpright(receipt.bounding_box ?? [], 90, false).map(([x, y]) => [
        x,
        y,
      ]);
    }
    const converted = review(raw);
    expect(converted.pageRotations).toEqual([90]);
    const expected = receipts(upright.fields).map((r) => r.locations);
    receipts(converted.fields).forEach((row, i) => expectSameLocations(row.locations, expected[i] ?? []));
  });
});

describe('custom API (products/custom/response_v1/complete.json)', () => {
  const document = load('products/custom/response_v1/complete.json');
  const { response, pageRotations, fields } = review(document);

  it('keeps every field of the two pages, and names the product', () => {
    expect(Object.keys(fields)).toEqual(Object.keys(document.inference.prediction));
    expect(Object.keys(fields)).toHaveLength(11);
    expect(response.inference.file.page_count).toBe(2);
    expect(response.inference.file.mime_type).toBe('application/pdf');
    expect(response.inference.model.id).toBe('ianare/field_test/v1.1');
    expect(pageRotations).toEqual([0, 0]);
  });

  it('joins the words of a field with spaces, one location per word on its page', () => {
    const all = simpleAt(fields.string_all);
    expect(all.value).toBe('Mindee is awesome');
    expect(all.confidence).toBe('Certain');
    expect(all.locations).toHaveLength(3);
    expect(all.locations.every((l) => l.page === 1)).toBe(true);
    expect(simpleAt(fields.date_normal).locations.map((l) => l.page)).toEqual([0]);
    expect(simpleAt(fields.email).value).toBe('contact@mindee.com');
  });

  it('maps the custom scores to levels', () => {
    expect(simpleAt(fields.number).confidence).toBe('High'); // 0.9
    expect(simpleAt(fields.integer).confidence).toBe('Medium'); // 0.76
    expect(simpleAt(fields.phone).confidence).toBe('Medium'); // 0.69
    // A classification: a value, no words.
    expect(simpleAt(fields.doc_type)).toEqual({ value: 'type_b', confidence: 'Low', locations: [] }); // 0.53
  });

  it('follows the thresholds given', () => {
    const strict = review(document, { thresholds: { certain: 0.99, high: 0.9, medium: 0.5 } }).fields;
    expect(simpleAt(strict.date_us).confidence).toBe('High'); // 0.97
    expect(simpleAt(strict.doc_type).confidence).toBe('Medium'); // 0.53
  });

  it('rejects thresholds out of order', () => {
    expect(() =>
      v1DocumentToReview(document, { thresholds: { certain: 0.5, high: 0.9, medium: 0.1 } }),
    ).toThrow(/certain ≥ high ≥ medium/);
  });

  it('joins the words of a custom table column (line_items/single_table_01.json)', () => {
    const table = review(load('products/custom/response_v1/line_items/single_table_01.json')).fields;
    const names = simpleAt(table.beneficiary_name);
    expect(names.value).toMatch(/^JAMES BOND /);
    expect(names.locations.length).toBeGreaterThan(2);
  });
});

describe('other recorded shapes', () => {
  it('reads page-level predictions when the document-level one is empty (cropper)', () => {
    const { fields } = review(load('products/cropper/response_v1/complete.json'));
    const zones = listAt(fields.cropping).items.map(simpleAt);
    expect(zones).toHaveLength(2);
    // The zone's own outline (`polygon`) rather than its box.
    expect(zones.every((z) => z.value === null && z.locations[0]?.page === 0)).toBe(true);
    expect(zones[0]?.locations[0]?.polygon).toHaveLength(17);
  });

  it('leaves out the page orientation a page prediction restates (us_w9)', () => {
    const { fields } = review(load('products/us_w9/response_v1/complete.json'));
    expect(fields.orientation).toBeUndefined();
    expect(simpleAt(fields.name).locations[0]?.page).toBe(0);
  });

  it('places a field without page_id on the only page there is (financial_document)', () => {
    const { fields } = review(load('products/financial_document/response_v1/complete_invoice.json'));
    expect(objectAt(fields.billing_address).locations.map((l) => l.page)).toEqual([0]);
  });

  it('clamps an outline just past the page edge and drops one in pixels', () => {
    const license = review(load('products/us_driver_license/response_v1/complete.json')).fields;
    const contour = simpleAt(license.contour).locations[0]?.polygon.flat() ?? [];
    expect(contour.length).toBeGreaterThan(0);
    expect(Math.min(...contour)).toBe(0);
    expect(Math.max(...contour)).toBe(1);
    const idCard = review(load('products/idcard_fr/response_v1/complete.json')).fields;
    expect(simpleAt(idCard.mrz1).locations).toEqual([]);
    expect(simpleAt(idCard.mrz1).value).not.toBeNull();
  });

  it('fills raw_text from the full_text_ocr extra', () => {
    const document = load('extras/full_text_ocr/complete.json');
    const { response } = review(document);
    expect(response.inference.active_options.raw_text).toBe(true);
    expect(response.inference.result.raw_text?.pages).toEqual([
      { content: document.inference.pages[0]?.extras.full_text_ocr?.content },
    ]);
    expect(response.inference.result.raw_text?.pages[0]?.content).toMatch(/^DOMICILIO\n/);
  });

  it('keeps nested fields and lists of a payroll register', () => {
    const { fields } = review(load('products/payroll_check_register/response_v1/complete.json'));
    const payment = objectAt(listAt(fields.payments).items[0]);
    expect(simpleAt(payment.fields.employee_name).value).toBe('of Athens, Xenophon');
    expect(simpleAt(payment.fields.employee_name).locations[0]?.page).toBe(0);
    expect(listAt(payment.fields.deductions).items).toEqual([]);
    const earning = objectAt(listAt(payment.fields.earnings).items[0]);
    expect(simpleAt(earning.fields.amount).value).toBe('5790.0');
  });
});

describe('every recorded v1 document', () => {
  const documents = fs
    .readdirSync(v1Dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const json: unknown = JSON.parse(fs.readFileSync(path.join(v1Dir, file), 'utf8'));
      const body = V1DocumentResponse.safeParse(json);
      const document = body.success ? body.data.document : V1WebhookBody.safeParse(json).data?.document;
      return document ? [[file, document] as const] : [];
    });

  it('covers the corpus', () => {
    expect(documents.length).toBeGreaterThan(100);
  });

  it.each(documents)('%s: a valid v2 result, every field kept, one turn per page', (_, document) => {
    const { response, pageRotations, fields } = review(document);
    const pageCount = response.inference.file.page_count;
    expect(pageRotations).toHaveLength(pageCount);
    const prediction = document.inference.prediction;
    if (Object.keys(prediction).length > 0) expect(Object.keys(fields)).toEqual(Object.keys(prediction));
    for (const leaf of flattenFields(fields)) {
      for (const location of leaf.locations) expect(location.page).toBeLessThan(pageCount);
    }
  });
});

describe('shapes not in the corpus', () => {
  it('never throws, and keeps what it can', () => {
    const document = load('products/expense_receipts/response_v5/complete.json');
    const odd = structuredClone(document);
    const page = odd.inference.pages[0];
    if (page) page.orientation.value = 45;
    odd.inference.is_rotation_applied = false;
    odd.inference.prediction = {
      far_page: {
        value: 'x',
        confidence: 0.9,
        page_id: 7,
        polygon: [
          [0.1, 0.1],
          [0.2, 0.1],
          [0.2, 0.2],
        ],
      },
      two_points: {
        value: 'y',
        page_id: 0,
        polygon: [
          [0.1, 0.1],
          [0.2, 0.2],
        ],
      },
      nested_value: { value: 'z', extra: { deep: [1, 'two', null, { a: true }] } },
      odd_value: { value: 'ok', weird: Number.NaN },
      mixed: [{ value: 'plain' }, { value: 'keyed', code: 'K' }],
      words: { confidence: 0.7, values: [{ content: null }, { content: 'only' }, { content: '' }] },
      empty_words: { confidence: 0, values: [] },
      no_value: {},
    };
    const { fields, pageRotations } = review(odd);
    // A turn that is not a quarter is unusable: the page is shown, and its polygons read, as stored.
    expect(pageRotations).toEqual([0]);
    expect(simpleAt(fields.far_page).locations).toEqual([]);
    expect(simpleAt(fields.two_points).locations).toEqual([]);
    const nested = objectAt(objectAt(fields.nested_value).fields.extra);
    // One object item makes every item an object (a v2 list never mixes kinds): plain ones under `value`.
    const deep = listAt(nested.fields.deep).items.map(objectAt);
    expect(deep.map((i) => i.fields.value && simpleAt(i.fields.value).value)).toEqual([
      1,
      'two',
      null,
      undefined,
    ]);
    expect(simpleAt(deep[3]?.fields.a).value).toBe(true);
    expect(simpleAt(objectAt(fields.odd_value).fields.weird).value).toBeNull();
    const mixed = listAt(fields.mixed).items.map(objectAt);
    expect(mixed.map((m) => simpleAt(m.fields.value).value)).toEqual(['plain', 'keyed']);
    expect(simpleAt(fields.words)).toEqual({ value: 'only', confidence: 'Medium', locations: [] });
    expect(simpleAt(fields.empty_words)).toEqual({ value: null, confidence: 'Low', locations: [] });
    expect(simpleAt(fields.no_value)).toEqual({ value: null, confidence: null, locations: [] });
  });

  it('names the model from the caller, or says v1 when the document does not', () => {
    const document = load('products/expense_receipts/response_v5/complete.json');
    const bare = structuredClone(document);
    delete bare.inference.product;
    expect(v1DocumentToReview(bare).response.inference.model.id).toBe('v1');
    expect(
      v1DocumentToReview(bare, { modelId: 'mindee/expense_receipts/v5', jobId: 'job-1' }).response.inference,
    ).toMatchObject({
      model: { id: 'mindee/expense_receipts/v5' },
      job: { id: 'job-1' },
    });
  });
});

function expectSameLocations(actual: readonly FieldLocation[], expected: readonly FieldLocation[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((location, i) => {
    expect(location.page).toBe(expected[i]?.page);
    location.polygon.forEach(([x, y], j) => {
      expect(x).toBeCloseTo(expected[i]?.polygon[j]?.[0] ?? NaN, 9);
      expect(y).toBeCloseTo(expected[i]?.polygon[j]?.[1] ?? NaN, 9);
    });
  });
}
