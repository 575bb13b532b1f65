import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { NetworkError, ProblemDetailsError, SchemaMismatchError } from '../errors';
import { inferenceKeys, jobKeys } from '../keys';
import {
  FIRST_POLL_DELAY_MS,
  GIVE_UP_AFTER_MS,
  HIDDEN_POLL_INTERVAL_MS,
  MAX_JOB_POLLS,
  POLL_INTERVAL_MS,
  PROCESSING_LIMIT_MS,
  RATE_LIMITED_POLL_DELAY_MS,
  WEBHOOK_FOLLOW_MS,
  WEBHOOK_POLL_INTERVAL_MS,
  extractionResultQueryOptions,
  hasGivenUpOnJob,
  isJobSettled,
  jobQueryOptions,
  jobRefetchInterval,
} from './queries';
import type { JobResponse, JobStatus, WebhookResponse } from '@extraction-review/contract/v2/schemas';

const NOW = Date.parse('2025-01-01T00:01:00Z');
const visible = { now: NOW, hidden: false };

const job = (status: JobStatus, webhooks: WebhookResponse[] = []): JobResponse => ({
  job: {
    id: 'J1',
    model_id: 'M1',
    filename: 'a.pdf',
    alias: null,
    created_at: '2025-01-01T00:00:00Z',
    completed_at: status === 'Processing' ? null : '2025-01-01T00:00:30Z',
    status,
    polling_url: '/api/v2/jobs/J1',
    result_url: status === 'Processed' ? '/api/v2/inferences/I1' : null,
    webhooks,
    error: null,
  },
});

const webhook = (status: WebhookResponse['status']): WebhookResponse => ({
  id: 'W1',
  created_at: null,
  status,
  error: null,
  attempts_count: 1,
});

describe('jobRefetchInterval', () => {
  it('polls 2 s after the enqueue answer, then every 1.5 s', () => {
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 1, error: null }, visible)).toBe(
      FIRST_POLL_DELAY_MS,
    );
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 2, error: null }, visible)).toBe(
      POLL_INTERVAL_MS,
    );
    expect(jobRefetchInterval({ data: undefined, dataUpdateCount: 0, error: null }, visible)).toBe(
      FIRST_POLL_DELAY_MS,
    );
    expect([FIRST_POLL_DELAY_MS, POLL_INTERVAL_MS]).toEqual([2_000, 1_500]);
  });

  it('stops at Processed and at Failed', () => {
    expect(jobRefetchInterval({ data: job('Processed'), dataUpdateCount: 5, error: null }, visible)).toBe(
      false,
    );
    expect(jobRefetchInterval({ data: job('Failed'), dataUpdateCount: 5, error: null }, visible)).toBe(false);
  });

  it('stops after an error that a retry cannot fix, not after a transient one', () => {
    const notFound = new ProblemDetailsError(
      { status: 404, title: 'Job not found', detail: '', code: '404-001', errors: [] },
      { endpoint: 'GET /api/v2/jobs/J1' },
    );
    const mismatch = new SchemaMismatchError([], { endpoint: 'GET /api/v2/jobs/J1', status: 200 });
    const offline = new NetworkError({ endpoint: 'GET /api/v2/jobs/J1' });
    expect(
      jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 3, error: notFound }, visible),
    ).toBe(false);
    expect(
      jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 3, error: mismatch }, visible),
    ).toBe(false);
    expect(jobRefetchInterval({ data: job('Processing'), dataUpdateCount: 3, error: offline }, visible)).toBe(
      POLL_INTERVAL_MS,
    );
  });

  it('has a safety stop beyond the 590 s processing limit', () => {
    expect(MAX_JOB_POLLS * POLL_INTERVAL_MS).toBeGreaterThan(590_000);
    expect(
      jobRefetchInterval({ data: job('Processing'), dataUpdateCount: MAX_JOB_POLLS, error: null }, visible),
    ).toBe(false);
  });

  it('slows down to every 15 s while the tab is hidden, and resumes once visible', () => {
    const state = { data: job('Processing'), dataUpdateCount: 4, error: null };
    expect(jobRefetchInterval(state, { now: NOW, hidden: true })).toBe(HIDDEN_POLL_INTERVAL_MS);
    expect(jobRefetchInterval(state, { now: NOW, hidden: false })).toBe(POLL_INTERVAL_MS);
    expect(HIDDEN_POLL_INTERVAL_MS).toBe(15_000);
  });

  it('gives up on a job still Processing past the 590 s limit, and says so', () => {
    const created = Date.parse('2025-01-01T00:00:00Z');
    const state = { data: job('Processing'), dataUpdateCount: 30, error: null };
    const justBefore = { now: created + GIVE_UP_AFTER_MS - 1, hidden: false };
    const after = { now: created + GIVE_UP_AFTER_MS + 1, hidden: false };
    expect(GIVE_UP_AFTER_MS).toBeGreaterThan(PROCESSING_LIMIT_MS);
    expect(jobRefetchInterval(state, justBefore)).toBe(POLL_INTERVAL_MS);
    expect(hasGivenUpOnJob(state.data.job, justBefore.now)).toBe(false);
    expect(jobRefetchInterval(state, after)).toBe(false);
    expect(hasGivenUpOnJob(state.data.job, after.now)).toBe(true);
    // A final job is never "given up on".
    expect(hasGivenUpOnJob(job('Failed').job, after.now)).toBe(false);
  });

  it('waits out a 429 for its Retry-After instead of stopping', () => {
    const limited = (retryAfterSeconds?: number) =>
      new ProblemDetailsError(
        { status: 429, title: 'Too many requests', detail: '', code: '429-001', errors: [] },
        { endpoint: 'GET /api/v2/jobs/J1', retryAfterSeconds },
      );
    const state = (error: unknown) => ({ data: job('Processing'), dataUpdateCount: 3, error });
    expect(jobRefetchInterval(state(limited(40)), visible)).toBe(40_000);
    expect(jobRefetchInterval(state(limited()), visible)).toBe(RATE_LIMITED_POLL_DELAY_MS);
    expect(jobRefetchInterval(state(limited(0)), visible)).toBe(POLL_INTERVAL_MS);
    expect(jobRefetchInterval(state(limited(40)), { now: NOW, hidden: true })).toBe(40_000);
  });

  it('follows the webhook deliveries of a finished job until each has an outcome', () => {
    const pending = job('Processed', [webhook('Processing')]);
    const delivered = job('Processed', [webhook('Processed')]);
    expect(isJobSettled(pending.job)).toBe(false);
    expect(isJobSettled(delivered.job)).toBe(true);
    expect(jobRefetchInterval({ data: pending, dataUpdateCount: 5, error: null }, visible)).toBe(
      WEBHOOK_POLL_INTERVAL_MS,
    );
    expect(jobRefetchInterval({ data: delivered, dataUpdateCount: 6, error: null }, visible)).toBe(false);
    const completed = Date.parse('2025-01-01T00:00:30Z');
    const late = { now: completed + WEBHOOK_FOLLOW_MS + 1, hidden: false };
    expect(jobRefetchInterval({ data: pending, dataUpdateCount: 9, error: null }, late)).toBe(false);
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
