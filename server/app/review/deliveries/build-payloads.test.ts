/**
 * The way back's payloads from recorded answers of the shared corpus: the corrected result in the
 * API's own shape (checked with the app's schemas), the changed fields, v1 feedback (PATCH) and v2 RAG.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { V1DocumentResponse, V1FeedbackRequest } from '@extraction-review/contract/v1/schemas';
import { ExtractionResponse } from '@extraction-review/contract/v2/schemas';
import { buildPayloads, type StoredDocument } from './build-payloads';

const fixture = (...parts: string[]): string => readFileSync(path.join(fixturesDir, ...parts), 'utf8');
const V2_RESULT = fixture('v2', 'products', 'extraction', 'standard_field_types.json');
const V1_RESULT = fixture('v1', 'products', 'invoices', 'response_v4', 'complete.json');
const INFERENCE_ID = '12345678-1234-4234-8234-123456789abc';

const v2 = (corrections: Record<string, unknown>): StoredDocument => ({
  apiVersion: 'v2',
  modelKey: 'model-1',
  upstreamJobId: 'job-1',
  upstreamResultId: INFERENCE_ID,
  resultJson: V2_RESULT,
  corrections,
});
const v1 = (corrections: Record<string, unknown>): StoredDocument => ({
  apiVersion: 'v1',
  modelKey: 'mindee/invoices/v4',
  upstreamJobId: null,
  upstreamResultId: 'doc-1',
  resultJson: V1_RESULT,
  corrections,
});

describe('the way back’s payloads, v2', () => {
  it('replaces the fields with the corrected ones and keeps the rest of the inference', () => {
    const payloads = buildPayloads(
      v2({
        field_simple_string: 'fixed',
        field_simple_float: '2.5',
        'field_object.subfield_1': 'moved',
        '#removed': ['field_simple_list[1]'],
        '#added': { field_object_list: 1 },
        'field_object_list[2].subfield_1': 'new row',
      }),
    );
    const response = ExtractionResponse.parse(payloads.corrected);
    const original = ExtractionResponse.parse(JSON.parse(V2_RESULT));
    expect(response.inference.id).toBe(original.inference.id);
    expect(response.inference.model).toEqual(original.inference.model);
    const fields = response.inference.result.fields;
    expect(fields.field_simple_string).toMatchObject({ value: 'fixed', confidence: 'Certain' });
    // A number field typed as text is sent as a number, as the review exports it.
    expect(fields.field_simple_float).toMatchObject({ value: 2.5 });
    expect(fields.field_object).toMatchObject({ fields: { subfield_1: { value: 'moved' } } });
    expect(fields.field_simple_list).toMatchObject({ items: [{ value: 'field_simple_list-0-value' }] });
    expect(fields.field_object_list && 'items' in fields.field_object_list).toBe(true);
    const rows =
      fields.field_object_list && 'items' in fields.field_object_list ? fields.field_object_list.items : [];
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({ fields: { subfield_1: { value: 'new row' } }, confidence: null });

    expect(payloads.changedFields).toEqual([
      {
        path: 'field_simple_string',
        change: 'corrected',
        before: 'field_simple_string-value',
        after: 'fixed',
      },
      { path: 'field_simple_float', change: 'corrected', before: 1.1, after: 2.5 },
      {
        path: 'field_simple_list[1]',
        change: 'removed',
        before: 'field_simple_list-1-value',
        after: null,
      },
      {
        path: 'field_object.subfield_1',
        change: 'corrected',
        before: 'field_object-subfield_1-value',
        after: 'moved',
      },
      {
        path: 'field_object_list[2]',
        change: 'added',
        before: null,
        after: { subfield_1: 'new row', subfield_2: null },
      },
    ]);
    expect(payloads.v2Rag).toEqual({ inference_id: INFERENCE_ID, fields });
    expect(payloads.v1Feedback).toBeUndefined();
  });

  it('lists no change for a value corrected to what was extracted, and sends the result unchanged', () => {
    const payloads = buildPayloads(v2({ field_simple_int: '12', field_simple_string: { $reverted: true } }));
    expect(payloads.changedFields).toEqual([]);
    expect(ExtractionResponse.parse(payloads.corrected)).toEqual(
      ExtractionResponse.parse(JSON.parse(V2_RESULT)),
    );
  });

  it('sends a result it cannot read as stored, with nothing for RAG', () => {
    const payloads = buildPayloads({ ...v2({ a: 1 }), resultJson: '{"inference":{"id":"x"}}' });
    expect(payloads).toEqual({ corrected: { inference: { id: 'x' } }, changedFields: [] });
    expect(buildPayloads({ ...v2({}), resultJson: 'not json' })).toEqual({
      corrected: {},
      changedFields: [],
    });
  });
});

describe('the way back’s payloads, v1', () => {
  it('writes the corrected values into the prediction, keeping scores and polygons', () => {
    const payloads = buildPayloads(
      v1({
        total_amount: '340.5',
        'locale.currency': 'USD',
        'line_items[0].description': 'Paper',
        '#removed': ['taxes[0]'],
        '#added': { reference_numbers: 1 },
        'reference_numbers[1]': 'PO-7',
      }),
    );
    const response = V1DocumentResponse.parse(payloads.corrected);
    const original = V1DocumentResponse.parse(JSON.parse(V1_RESULT));
    const prediction = response.document.inference.prediction;
    const before = original.document.inference.prediction;
    expect(prediction.total_amount).toEqual({ ...before.total_amount, value: 340.5 });
    expect(prediction.locale).toEqual({ ...before.locale, currency: 'USD' });
    const lines = prediction.line_items as unknown[];
    expect(lines[0]).toEqual({ ...(before.line_items as object[])[0], description: 'Paper' });
    expect(prediction.taxes).toEqual([]);
    expect(prediction.reference_numbers).toEqual([
      (before.reference_numbers as unknown[])[0],
      { value: 'PO-7' },
    ]);
    // Untouched fields are as stored; so is the rest of the answer.
    expect(prediction.invoice_number).toEqual(before.invoice_number);
    expect(response.api_request).toEqual(original.api_request);
    expect(response.document.inference.pages).toEqual(original.document.inference.pages);

    expect(payloads.changedFields.map((c) => [c.path, c.change])).toEqual([
      ['line_items[0].description', 'corrected'],
      ['locale.currency', 'corrected'],
      ['reference_numbers[1]', 'added'],
      ['taxes[0]', 'removed'],
      ['total_amount', 'corrected'],
    ]);
    expect(payloads.changedFields).toContainEqual({
      path: 'total_amount',
      change: 'corrected',
      before: 335.18,
      after: 340.5,
    });

    // PATCH: the changed fields only, in the shape the v1 feedback endpoint takes.
    const feedback = V1FeedbackRequest.parse(payloads.v1Feedback);
    expect(Object.keys(feedback.feedback).sort()).toEqual([
      'line_items',
      'reference_numbers',
      'taxes',
      'total_amount',
    ]);
    expect(feedback.feedback.total_amount).toEqual({ value: 340.5 });
    expect(feedback.feedback.taxes).toEqual([]);
    expect(feedback.feedback.reference_numbers).toEqual([{ value: 'string' }, { value: 'PO-7' }]);
    expect(payloads.v2Rag).toBeUndefined();
  });

  it('has no feedback when nothing changed', () => {
    const payloads = buildPayloads(v1({ total_amount: 335.18 }));
    expect(payloads.changedFields).toEqual([]);
    expect(payloads.v1Feedback).toBeUndefined();
    expect(payloads.corrected).toEqual(JSON.parse(V1_RESULT));
  });
});
