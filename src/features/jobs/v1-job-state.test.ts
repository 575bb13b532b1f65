import { describe, expect, it } from 'vitest';
import { V1JobFailedError } from '../../api/errors';
import { V1DocumentResponse, V1JobResponse } from '@extraction-review/contract/v1/schemas';
import { v1BadgeStatus, v1JobOutcome } from './v1-job-state';

const apiRequest = { error: {}, resources: ['job'], status: 'success', status_code: 200, url: 'x' };
const job = (status: string, error: object = {}) =>
  V1JobResponse.parse({
    api_request: apiRequest,
    job: { id: 'J1', issued_at: '2025-01-01T10:00:00+00:00', status, error },
  });

describe('a v1 job’s outcome', () => {
  it('is running while waiting or processing, pending before any answer', () => {
    expect(v1JobOutcome(undefined)).toEqual({ kind: 'pending' });
    expect(v1JobOutcome(job('waiting'))).toMatchObject({ kind: 'running' });
    expect(v1BadgeStatus(v1JobOutcome(job('processing')))).toBe('Processing');
  });

  it('carries the job’s own error once failed', () => {
    const outcome = v1JobOutcome(
      job('failed', { code: '422-002', message: 'Unreadable', details: 'Not a document.' }),
    );
    expect(outcome.kind).toBe('failed');
    if (outcome.kind !== 'failed') return;
    expect(outcome.error).toBeInstanceOf(V1JobFailedError);
    expect(outcome.error).toMatchObject({
      code: '422-002',
      apiMessage: 'Unreadable',
      details: 'Not a document.',
    });
    expect(v1BadgeStatus(outcome)).toBe('Failed');
  });

  it('is done with the document the followed redirect brought, lost without it', () => {
    const body = V1DocumentResponse.parse({
      api_request: { ...apiRequest, resources: ['document', 'job'] },
      document: {
        id: 'D1',
        name: 'a.pdf',
        n_pages: 1,
        inference: {
          started_at: '2025-01-01T10:00:00+00:00',
          finished_at: '2025-01-01T10:00:01+00:00',
          processing_time: 1,
          prediction: {},
          pages: [],
        },
      },
      job: { id: 'J1', issued_at: '2025-01-01T10:00:00+00:00', status: 'completed' },
    });
    expect(v1JobOutcome(body)).toMatchObject({ kind: 'done', document: { id: 'D1' }, job: { id: 'J1' } });
    expect(v1JobOutcome(job('completed'))).toMatchObject({ kind: 'lost' });
  });
});
