/**
 * The hub reads the one clock it is given (server-kit/clock.ts): a job event without a `receivedAt`
 * gets the clock's now, not the wall clock's.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '@extraction-review/test-kit/manual-clock';
import { AppEventHub } from './app-event-hub';

const T0 = Date.UTC(2026, 10, 28, 9, 30, 0);

async function replayed(hub: AppEventHub): Promise<string> {
  const reader = hub.subscribe(`${hub.run}-0`).getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

describe('the app event hub and its clock', () => {
  it("stamps a job event's receivedAt with the injected clock when none is given", async () => {
    const clock = manualClock(T0);
    const hub = new AppEventHub({ clock });
    try {
      hub.publishJob({ version: 'v2', jobId: 'job-1', status: 'Failed' });
      clock.advance(90_000);
      hub.publishJob({ version: 'v2', jobId: 'job-1', status: 'Processed' });
      hub.publishJob({
        version: 'v2',
        jobId: 'job-2',
        status: 'Processed',
        receivedAt: '2020-01-01T00:00:00.000Z',
      });
      const text = await replayed(hub);
      const received = [...text.matchAll(/"receivedAt":"([^"]+)"/g)].map((m) => m[1]);
      expect(received).toEqual([
        new Date(T0).toISOString(),
        new Date(T0 + 90_000).toISOString(),
        '2020-01-01T00:00:00.000Z',
      ]);
    } finally {
      hub.close();
    }
  });
});
