// @vitest-environment node
/**
 * toV1Feedback on a recorded v1 prediction (products/invoices/response_v4/complete.json) made into the
 * review's tree by the v1 adapter, as the v1 job page does: every payload is checked by the request
 * schema the endpoint checks it with (V1FeedbackRequest).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import {
  V1DocumentResponse,
  V1FeedbackRequest,
  type V1Document,
} from '@extraction-review/contract/v1/schemas';
import { buildReviewTree, NO_EDITS, type Edits } from '../fields/review-tree';
import { v1DocumentToReview } from '../v1/v1-to-review';
import {
  canonical,
  isAlreadyStored,
  storedFields,
  toV1Feedback,
  type FeedbackMethod,
} from './to-v1-feedback';

const FIXTURE = path.join(fixturesDir, 'v1', 'products', 'invoices', 'response_v4', 'complete.json');

function loadInvoice(): V1Document {
  return V1DocumentResponse.parse(JSON.parse(fs.readFileSync(FIXTURE, 'utf8'))).document;
}

function plan(edits: Partial<Edits>, method: FeedbackMethod, document = loadInvoice()) {
  const fields = v1DocumentToReview(document).response.inference.result.fields;
  const result = toV1Feedback(buildReviewTree(fields, { ...NO_EDITS, ...edits }), method);
  // Whatever the panel shows is what the endpoint would send: strictly valid, or empty.
  if (Object.keys(result.feedback).length > 0)
    expect(V1FeedbackRequest.parse({ feedback: result.feedback })).toEqual({ feedback: result.feedback });
  return result;
}

/** The recorded line item, as v1 feedback writes an item: its keys with their values, nothing else. */
const LINE_ITEM = {
  description: 'string',
  product_code: 'string',
  quantity: 20,
  tax_amount: 20,
  tax_rate: 20,
  total_amount: 20.5,
  unit_measure: 'hour',
  unit_price: 20.5,
};

describe('toV1Feedback (invoices v4 through the v1 adapter)', () => {
  it('has nothing to send before the operator changed or confirmed anything', () => {
    expect(plan({}, 'PATCH')).toEqual({ method: 'PATCH', feedback: {}, unsent: [], invalid: [] });
    expect(plan({}, 'PUT').feedback).toEqual({});
  });

  it('PATCH sends exactly the changed simple field, its typed number as a number', () => {
    const out = plan({ values: { total_amount: '400.50' }, reviewed: ['invoice_number'] }, 'PATCH');
    expect(out.feedback).toEqual({ total_amount: { value: 400.5 } });
    expect(out.unsent).toEqual([]);
  });

  it('a value typed back to the prediction (as the editor shows it) is no change', () => {
    expect(plan({ values: { total_amount: '335.180', date: '2019-08-25' } }, 'PATCH').feedback).toEqual({});
  });

  it('an emptied value is sent as null, a cleared field', () => {
    expect(plan({ values: { po_number: '' } }, 'PATCH').feedback).toEqual({ po_number: { value: null } });
  });

  it('PUT sends every validated field: the changed ones and the confirmed ones, in the review’s order', () => {
    const out = plan(
      { values: { total_amount: 400 }, reviewed: ['invoice_number', 'supplier_name', 'taxes[0].rate'] },
      'PUT',
    );
    expect(out.feedback).toEqual({
      invoice_number: { value: '1547854214' },
      supplier_name: { value: 'JETBRAINS' },
      taxes: [{ value: 23, rate: 8, base: 23 }],
      total_amount: { value: 400 },
    });
    expect(Object.keys(out.feedback)).toEqual(['invoice_number', 'supplier_name', 'taxes', 'total_amount']);
  });

  it('a changed cell sends its whole list, every item as an object of plain values', () => {
    const out = plan({ values: { 'line_items[0].description': 'Licence' } }, 'PATCH');
    expect(out.feedback).toEqual({ line_items: [{ ...LINE_ITEM, description: 'Licence' }] });
  });

  it('items removed are left out, items added come last; plain items are { value }', () => {
    const out = plan(
      {
        removed: ['taxes[0]'],
        added: { reference_numbers: 1 },
        values: { 'reference_numbers[1]': 'PO-77' },
      },
      'PATCH',
    );
    expect(out.feedback).toEqual({
      reference_numbers: [{ value: 'string' }, { value: 'PO-77' }],
      taxes: [],
    });
  });

  it('an object field sends its value alone; edits to its other keys are listed as not sent', () => {
    const out = plan(
      {
        values: { 'supplier_address.value': '1 Main St', 'supplier_address.city': 'Lyon' },
        reviewed: ['locale.currency'],
      },
      'PUT',
    );
    expect(out.feedback).toEqual({ supplier_address: { value: '1 Main St' } });
    expect(out.unsent.map((u) => u.path)).toEqual(['locale.currency', 'supplier_address.city']);
    // PATCH does not mention what was only confirmed.
    const patch = plan({ values: { 'locale.currency': 'USD' }, reviewed: ['billing_address.city'] }, 'PATCH');
    expect(patch.feedback).toEqual({});
    expect(patch.unsent).toEqual([
      { path: 'locale.currency', reason: expect.stringContaining('only the value') as string },
    ]);
  });

  it('an object field without a value of its own (the reference service’s locale) cannot be sent', () => {
    const document = loadInvoice();
    const locale = document.inference.prediction.locale;
    if (!locale || Array.isArray(locale)) throw new Error('no locale');
    delete locale.value;
    const out = plan({ values: { 'locale.currency': 'USD' } }, 'PATCH', document);
    expect(out.feedback).toEqual({});
    expect(out.unsent).toEqual([
      { path: 'locale.currency', reason: expect.stringContaining('no value of its own') as string },
    ]);
  });

  it('flags text in a number field, which the panel refuses to send', () => {
    const out = plan({ values: { total_amount: '12,5', 'line_items[0].quantity': 'two' } }, 'PATCH');
    expect(out.invalid).toEqual(['line_items[0].quantity', 'total_amount']);
  });

  it('the same edits always make the same payload', () => {
    const edits = { values: { total_amount: '9.99', 'taxes[0].rate': '5.5' }, reviewed: ['date'] };
    expect(canonical(plan(edits, 'PUT').feedback)).toBe(canonical(plan(edits, 'PUT').feedback));
  });
});

describe('isAlreadyStored', () => {
  // The answer lists every product field, null where unset, keys in the server's own order.
  const stored = {
    date: null,
    taxes: [{ base: 23, rate: 8, value: 23 }],
    total_amount: { value: 400 },
  };

  it('PATCH: every field sent is stored as sent (item keys in any order)', () => {
    expect(isAlreadyStored('PATCH', { total_amount: { value: 400 } }, stored)).toBe(true);
    expect(isAlreadyStored('PATCH', { taxes: [{ value: 23, rate: 8, base: 23 }] }, stored)).toBe(true);
    expect(isAlreadyStored('PATCH', { total_amount: { value: 401 } }, stored)).toBe(false);
    expect(isAlreadyStored('PATCH', { date: { value: '2024-01-01' } }, stored)).toBe(false);
    expect(isAlreadyStored('PATCH', { date: null }, stored)).toBe(true);
    expect(isAlreadyStored('PATCH', {}, stored)).toBe(false);
  });

  it('PUT: the same, and no other field stored (PUT would clear it)', () => {
    expect(isAlreadyStored('PUT', { total_amount: { value: 400 } }, stored)).toBe(false);
    expect(
      isAlreadyStored(
        'PUT',
        { total_amount: { value: 400 }, taxes: [{ value: 23, rate: 8, base: 23 }] },
        stored,
      ),
    ).toBe(true);
  });

  it('storedFields keeps the fields that hold something', () => {
    expect(storedFields(stored)).toEqual({ taxes: stored.taxes, total_amount: stored.total_amount });
  });
});
