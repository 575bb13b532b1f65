import { describe, expect, it } from 'vitest';
import { ProblemDetailsError } from '../errors';
import { v1JobKeys } from '../keys';
import { FIRST_POLL_DELAY_MS, POLL_INTERVAL_MS } from '../v2/queries';
import { v1JobQueryOptions, v1JobRefetchInterval } from './queries';
import type { V1QueueResponse } from '@extraction-review/contract/v1/schemas';

const apiRequest = { error: {}, resources: ['job'], status: 'success', status_code: 200, url: 'x' };
const queued = (status: 'waiting' | 'processing' | 'completed' | 'failed'): V1QueueResponse => ({
  api_request: apiRequest,
  job: { id: 'J1', issued_at: '2024-01-01T00:00:00Z', available_at: null, status, error: {} },
});

describe('v1JobRefetchInterval', () => {
  it('polls like v2 while the job waits or runs', () => {
    expect(v1JobRefetchInterval({ data: queued('waiting'), dataUpdateCount: 1, error: null })).toBe(
      FIRST_POLL_DELAY_MS,
    );
    expect(v1JobRefetchInterval({ data: queued('processing'), dataUpdateCount: 4, error: null })).toBe(
      POLL_INTERVAL_MS,
    );
  });

  it('stops when the job is over, or when the followed redirect brought the document', () => {
    expect(v1JobRefetchInterval({ data: queued('completed'), dataUpdateCount: 4, error: null })).toBe(false);
    expect(v1JobRefetchInterval({ data: queued('failed'), dataUpdateCount: 4, error: null })).toBe(false);
    const withDocument = { ...queued('processing'), document: {} } as unknown as V1QueueResponse;
    expect(v1JobRefetchInterval({ data: withDocument, dataUpdateCount: 4, error: null })).toBe(false);
  });

  it('stops after a lasting error', () => {
    const forbidden = new ProblemDetailsError(
      { status: 403, title: 'Forbidden', detail: '', code: '403-001', errors: [] },
      { endpoint: 'GET /api/v1/x' },
    );
    expect(v1JobRefetchInterval({ data: queued('waiting'), dataUpdateCount: 2, error: forbidden })).toBe(
      false,
    );
  });

  it('keys the query by product and job', () => {
    const product = { account: 'mindee', name: 'invoices', version: 4 };
    expect(v1JobQueryOptions(product, 'J1').queryKey).toEqual(v1JobKeys.detail(product, 'J1'));
  });
});
