import { describe, expect, it } from 'vitest';
import { V1DocumentResponse, V1Polygon, V1ProductRef, V1QueueResponse, hasDocument } from './schemas';

describe('v1 polygons', () => {
  it('keep coordinates outside 0..1, as some products send them', () => {
    expect(
      V1Polygon.parse([
        [-0.046, 1.045],
        [208.3, 688.6],
        [0, 0],
      ]),
    ).toEqual([
      [-0.046, 1.045],
      [208.3, 688.6],
      [0, 0],
    ]);
  });

  it('read a polygon with a missing coordinate as no polygon (bad_polygons_driver_license_v1.json)', () => {
    expect(
      V1Polygon.parse([
        [null, null],
        [0.1, 0.2],
        [0.3, 0.4],
      ]),
    ).toEqual([]);
  });
});

describe('the queue answer', () => {
  const apiRequest = {
    error: {},
    resources: ['document', 'job'],
    status: 'success',
    status_code: 200,
    url: 'x',
  };
  const job = { id: 'J1', issued_at: '2024-01-01T00:00:00', status: 'completed' };
  const document = {
    id: 'D1',
    name: 'a.pdf',
    n_pages: 1,
    inference: {
      started_at: '2024-01-01T00:00:00',
      finished_at: '2024-01-01T00:00:01',
      processing_time: 1,
      prediction: { total: { value: 1, confidence: 1, custom_key: 'kept' } },
      pages: [{ id: 0, prediction: {} }],
    },
  };

  it('keeps the document when the 302 was followed, and the product-specific keys', () => {
    const body = V1QueueResponse.parse({ api_request: apiRequest, document, job });
    expect(hasDocument(body)).toBe(true);
    const parsed = V1DocumentResponse.parse({ api_request: apiRequest, document, job });
    expect(parsed.document.inference.prediction.total).toEqual({
      value: 1,
      confidence: 1,
      custom_key: 'kept',
    });
    // Left out by older products: read as "no orientation information".
    expect(parsed.document.inference.is_rotation_applied).toBeNull();
    expect(parsed.document.inference.pages[0]).toEqual({
      id: 0,
      orientation: { value: null },
      extras: {},
      prediction: {},
    });
    expect(parsed.job?.error).toEqual({});
    expect(parsed.job?.issued_at).toBe('2024-01-01T00:00:00Z');
  });

  it('is the job alone while it runs', () => {
    expect(
      hasDocument(V1QueueResponse.parse({ api_request: apiRequest, job: { ...job, status: 'waiting' } })),
    ).toBe(false);
  });
});

describe('V1ProductRef', () => {
  it('takes 4 or "v4", and refuses path tricks', () => {
    expect(V1ProductRef.parse({ account: 'mindee', name: 'invoices', version: 'v4' }).version).toBe('4');
    expect(V1ProductRef.parse({ account: 'mindee', name: 'invoices', version: 4 }).version).toBe('4');
    expect(V1ProductRef.safeParse({ account: '..', name: 'invoices', version: 4 }).success).toBe(false);
    expect(V1ProductRef.safeParse({ account: 'a/b', name: 'invoices', version: 4 }).success).toBe(false);
    expect(V1ProductRef.safeParse({ account: 'mindee', name: 'invoices', version: 'latest' }).success).toBe(
      false,
    );
  });
});
