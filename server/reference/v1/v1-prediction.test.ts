/**
 * The v2 → v1 field mapping and the turn into the upright frame, on hand-made field results (the HTTP
 * tests in v1-routes.test.ts run the same code on real documents).
 */
import { describe, expect, it } from 'vitest';
import { V1Prediction } from '@extraction-review/contract/v1/schemas';
import type { FieldResult } from '@extraction-review/document-text/api-types';
import type { V1Product } from '../models/model-catalog';
import { turnPoint } from './upright-polygons';
import { v1Document } from './v1-document';
import { pagePrediction, toV1Prediction } from './v1-prediction';

const product: V1Product = {
  account: 'mindee',
  name: 'invoices',
  version: '4',
  model_id: 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a',
  type: 'standard',
  sync: true,
  async: true,
  feedback: true,
  rotation_applied: true,
  webhooks: [],
  fields: [
    { name: 'total_amount', from: 'total_amount', percent: [] },
    { name: 'due_date', from: 'due_date', percent: [] },
    {
      name: 'taxes',
      from: 'taxes',
      keys: { value: 'amount', rate: 'rate', base: 'base' },
      percent: ['rate'],
    },
    { name: 'document_type', from: 'document_type', percent: [], values: { invoice: 'INVOICE' } },
  ],
};

const square = (x: number, y: number): [number, number][] => [
  [x, y],
  [x + 0.1, y],
  [x + 0.1, y + 0.05],
  [x, y + 0.05],
];

const fields: Record<string, FieldResult> = {
  total_amount: { value: 12.5, confidence: 'Certain', locations: [{ page: 1, polygon: square(0.6, 0.8) }] },
  due_date: { value: null, confidence: null, locations: [] },
  taxes: {
    confidence: 'High',
    items: [
      {
        confidence: 'High',
        locations: [],
        fields: {
          rate: { value: 0.2, confidence: 'High', locations: [{ page: 0, polygon: square(0.1, 0.5) }] },
          base: { value: 10, confidence: 'High', locations: [] },
          amount: { value: 2, confidence: 'High', locations: [] },
        },
      },
    ],
  },
  document_type: { value: 'invoice', confidence: 'Medium', locations: [] },
};

describe('toV1Prediction', () => {
  it('writes v1 names, numeric confidence, percent rates, v1 classification values, one polygon per field', () => {
    const prediction = toV1Prediction(product, fields, { orientations: [0, 0] });
    expect(V1Prediction.safeParse(prediction).success).toBe(true);
    expect(prediction['total_amount']).toEqual({
      value: 12.5,
      confidence: 0.99,
      polygon: square(0.6, 0.8),
      page_id: 1,
    });
    expect(prediction['due_date']).toEqual({ value: null, confidence: 0, polygon: [], page_id: null });
    expect(prediction['taxes']).toEqual([
      { value: 2, rate: 20, base: 10, confidence: 0.9, polygon: square(0.1, 0.5), page_id: 0 },
    ]);
    expect(prediction['document_type']).toMatchObject({ value: 'INVOICE', confidence: 0.7 });
  });

  it('turns polygons into the upright frame of their page', () => {
    const prediction = toV1Prediction(product, fields, { orientations: [0, 90] });
    const total = prediction['total_amount'];
    if (Array.isArray(total) || !total) throw new Error('expected one field');
    expect(total.polygon).toEqual(square(0.6, 0.8).map((p) => turnPoint(p, 90)));
  });

  it('gives each page the fields found on it, the others empty', () => {
    const prediction = toV1Prediction(product, fields, { orientations: [0, 0] });
    const first = pagePrediction(prediction, 0);
    expect(first['total_amount']).toEqual({ value: null, confidence: 0, polygon: [], page_id: null });
    expect(first['taxes']).toHaveLength(1);
    expect(pagePrediction(prediction, 1)['taxes']).toEqual([]);
    expect(pagePrediction(prediction, 1)['total_amount']).toEqual(prediction['total_amount']);
  });
});

describe('turnPoint', () => {
  it('follows a corner of the page turned clockwise', () => {
    // The top-left corner of a page turned clockwise ends top-right, then bottom-right, bottom-left.
    expect(turnPoint([0, 0], 90)).toEqual([1, 0]);
    expect(turnPoint([0, 0], 180)).toEqual([1, 1]);
    expect(turnPoint([0, 0], 270)).toEqual([0, 1]);
    expect(turnPoint([0.25, 0.5], 0)).toEqual([0.25, 0.5]);
  });
});

describe('v1Document and is_rotation_applied', () => {
  const reading = { pageCount: 2, fields, orientations: [0, 90] as const };
  const at = new Date('2026-11-21T10:00:00Z');
  const document = (rotationApplied: boolean, readUpright?: boolean[]) =>
    v1Document({
      documentId: 'd',
      filename: 'f.pdf',
      product: { ...product, rotation_applied: rotationApplied },
      reading: { ...reading, orientations: [...reading.orientations], ...(readUpright && { readUpright }) },
      startedAt: at,
      finishedAt: at,
    });

  it('writes polygons in the upright frame, and says so, by default', () => {
    const body = document(true);
    expect(body.inference.is_rotation_applied).toBe(true);
    expect(body.inference.pages.map((p) => p.orientation.value)).toEqual([0, 90]);
    const total = V1Prediction.parse(body.inference.prediction).total_amount;
    if (!total || Array.isArray(total)) throw new Error('total_amount');
    expect(total.polygon?.[0]).toEqual(turnPoint([0.6, 0.8], 90));
  });

  it('leaves them in the frame of the page as stored for a product configured so, and says so', () => {
    const body = document(false);
    expect(body.inference.is_rotation_applied).toBe(false);
    // The orientation is still reported: it is what a client turns the polygons by.
    expect(body.inference.pages.map((p) => p.orientation.value)).toEqual([0, 90]);
    const total = V1Prediction.parse(body.inference.prediction).total_amount;
    if (!total || Array.isArray(total)) throw new Error('total_amount');
    expect(total.polygon?.[0]).toEqual([0.6, 0.8]);
  });

  it('keeps the boxes of a page read upright as they are, or turns them back for the stored frame', () => {
    const total = (body: ReturnType<typeof document>) => {
      const field = V1Prediction.parse(body.inference.prediction).total_amount;
      if (!field || Array.isArray(field)) throw new Error('total_amount');
      return field.polygon?.[0];
    };
    // Read from the upright copy of page 1 (turned 90°): already upright.
    expect(total(document(true, [false, true]))).toEqual([0.6, 0.8]);
    // The stored frame asked for: turned back by the remaining 270°.
    expect(total(document(false, [false, true]))).toEqual(turnPoint([0.6, 0.8], 270));
  });
});
