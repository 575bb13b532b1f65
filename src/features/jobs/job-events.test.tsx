import { QueryClient } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notifyRetryWait } from '../../api/http';
import { jobKeys } from '../../api/keys';
import { jobQueryOptions } from '../../api/v2/queries';
import type { JobResponse, JobStatus } from '@extraction-review/contract/v2/schemas';
import { createJobEventStore, refreshJobOnEvent } from './job-events';
import { RateLimitNotice } from './rate-limit-notice';

const job = (status: JobStatus): JobResponse => ({
  job: {
    id: 'J1',
    model_id: 'M1',
    filename: 'a.pdf',
    alias: null,
    created_at: '2025-01-01T00:00:00Z',
    completed_at: status === 'Processing' ? null : '2025-01-01T00:00:01Z',
    status,
    polling_url: '/api/v2/jobs/J1',
    result_url: status === 'Processed' ? '/api/v2/inferences/I1' : null,
    webhooks: [],
    error: null,
  },
});

const event = {
  version: 'v2',
  jobId: 'J1',
  status: 'Processed',
  receivedAt: '2025-01-01T00:00:01.000Z',
} as const;

/** A client holding the job as first answered, and the job's options answering the rest in turn. */
async function clientAnswering(...answers: JobResponse[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let call = 0;
  const optionsFor = (jobId: string) => ({
    ...jobQueryOptions(jobId),
    queryFn: async () => answers[Math.min(call++, answers.length - 1)] as JobResponse,
  });
  // Seeded as an upload seeds it: no view observes it.
  client.setQueryData(jobKeys.detail('J1'), answers[call++]);
  return { client, optionsFor };
}

describe('a job event', () => {
  it('fetches the job at once, and marks it when that fetch brought the final status', async () => {
    const { client, optionsFor } = await clientAnswering(job('Processing'), job('Processed'));
    const store = createJobEventStore();
    expect(await refreshJobOnEvent(client, store, event, optionsFor)).toBe(true);
    expect(client.getQueryData<JobResponse>(jobKeys.detail('J1'))?.job.status).toBe('Processed');
    expect(store.getSnapshot().updatedByEvent.has('J1')).toBe(true);
  });

  it('does not claim a status a poll had already brought', async () => {
    const { client, optionsFor } = await clientAnswering(job('Processed'));
    const store = createJobEventStore();
    await refreshJobOnEvent(client, store, event, optionsFor);
    expect(store.getSnapshot().updatedByEvent.has('J1')).toBe(false);
  });

  it('leaves jobs this browser does not follow alone', async () => {
    const client = new QueryClient();
    const store = createJobEventStore();
    expect(await refreshJobOnEvent(client, store, { ...event, jobId: 'other' })).toBe(false);
    expect(store.getSnapshot().updatedByEvent.size).toBe(0);
  });
});

describe('RateLimitNotice', () => {
  it('says when a rate-limited job poll will be tried again, and only for job polls', () => {
    render(<RateLimitNotice />);
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('');
    act(() =>
      notifyRetryWait({
        endpoint: 'GET /api/v2/search/models',
        status: 429,
        waitMs: 3000,
        retry: 1,
        at: Date.now(),
      }),
    );
    expect(status).toHaveTextContent('');
    act(() =>
      notifyRetryWait({
        endpoint: 'GET /api/v2/jobs/J1',
        status: 429,
        waitMs: 3000,
        retry: 1,
        at: Date.now(),
      }),
    );
    expect(status).toHaveTextContent('The service is rate limiting requests: job updates resume in 3 s.');
  });
});
