import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { NetworkError, ProblemDetailsError, SchemaMismatchError } from '../errors';
import { inferenceKeys, jobKeys } from '../keys';
import {
  FIRST_POLL_DELAY_MS,
  MAX_JOB_POLLS,
  POLL_INTERVAL_MS,
  extractionResultQueryOptions,
  jobQueryOptions,
  jobRefetchInterval,
} from './queries';
import type { JobResponse, JobStatus } from './schemas';

const job = (status: JobStatus): JobResponse => ({
  job: {
    id: 'J1',
    model_id: 'M1',
    filename: 'a.pdf',
    alias: null,
    created_at: '2025-01-01T00:00:00Z',
    completed_at: null,
    status,
    polling_url: '/api/v2/jobs/J1',
    result_url: status === 'Processed' ? '/api/v2/inferences/I1' : null,
    webhooks: [],
    error: null,
  },
});

describe('jobRefetchInterval', () => {
  it('polls 2 s after the enqueue answer, then every 1.5 s', () => {
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 1, error: null })).toBe(
      FIRST_POLL_DELAY_MS,
    );
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 2, error: null })).toBe(
      POLL_INTERVAL_MS,
    );
    expect(jobRefetchInterval({ data: undefined, dataUpdateCount: 0, error: null })).toBe(
      FIRST_POLL_DELAY_MS,
    );
    expect([FIRST_POLL_DELAY_MS, POLL_INTERVAL_MS]).toEqual([2_000, 1_500]);
  });

  it('stops at Processed and at Failed', () => {
    expect(jobRefetchInterval({ data: job('Processed'), dataUpdateCount: 5, error: null })).toBe(false);
    expect(jobRefetchInterval({ data: job('Failed'), dataUpdateCount: 5, error: null })).toBe(false);
  });

  it('stops after an error that a retry cannot fix, not after a transient one', () => {
    const notFound = new ProblemDetailsError(
      { status: 404, title: 'Job not found', detail: '', code: '404-001', errors: [] },
      { endpoint: 'GET /api/v2/jobs/J1' },
    );
    const mismatch = new SchemaMismatchError([], { endpoint: 'GET /api/v2/jobs/J1', status: 200 });
    const offline = new NetworkError({ endpoint: 'GET /api/v2/jobs/J1' });
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 3, error: notFound })).toBe(false);
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 3, error: mismatch })).toBe(false);
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 3, error: offline })).toBe(
      POLL_INTERVAL_MS,
    );
  });

  it('has a safety stop beyond the 590 s processing limit', () => {
    expect(MAX_JOB_POLLS * POLL_INTERVAL_MS).toBeGreaterThan(590_000);
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: MAX_JOB_POLLS, error: null })).toBe(
      false,
    );
  });
});

describe('query options', () => {
  it('use the key factories', () => {
    expect(jobQueryOptions('J1').queryKey).toEqual(jobKeys.detail('J1'));
    expect(extractionResultQueryOptions('/api/v2/inferences/I1').queryKey).toEqual(
      inferenceKeys.detail('I1'),
    );
  });

  it('serve a finished job from the cache, and fetch a running one again', async () => {
    const client = new QueryClient();
    client.setQueryData(jobKeys.detail('J1'), job('Processed'));
    await expect(client.fetchQuery(jobQueryOptions('J1'))).resolves.toEqual(job('Processed'));
    client.setQueryData(jobKeys.detail('J2'), job('Processing'));
    // A fetch is attempted: outside a browser the default same-origin client has no origin to call.
    await expect(client.fetchQuery({ ...jobQueryOptions('J2'), retry: false })).rejects.toThrow(
      /absolute baseUrl/,
    );
  });

  it('never refetch a result', async () => {
    const client = new QueryClient();
    const options = extractionResultQueryOptions('/api/v2/inferences/I1');
    expect([options.staleTime, options.gcTime]).toEqual([Infinity, Infinity]);
    client.setQueryData(options.queryKey, { inference: {} } as never);
    await expect(client.fetchQuery(options)).resolves.toEqual({ inference: {} });
  });
});
