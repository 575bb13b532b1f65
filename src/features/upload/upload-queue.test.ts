import { describe, expect, it } from 'vitest';
import { createUploadQueue, type SendReport, type UploadItem } from './upload-queue';

interface Call {
  payload: string;
  report: SendReport;
  signal: AbortSignal;
  resolve: (sent: { jobId: string }) => void;
  reject: (error: unknown) => void;
}

/** A queue whose sends wait until the test settles them. */
function setup(concurrency = 3) {
  const calls: Call[] = [];
  let next = 0;
  let clock = 1_000;
  const queue = createUploadQueue<string>({
    concurrency,
    now: () => clock,
    newId: () => `u${++next}`,
    send: (payload, report, signal) =>
      new Promise<{ jobId: string }>((resolve, reject) => {
        calls.push({ payload, report, signal, resolve, reject });
        signal.addEventListener('abort', () => reject(signal.reason));
      }),
  });
  const phases = () => queue.getSnapshot().map((item) => item.phase.kind);
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  const advance = (ms: number) => (clock += ms);
  return { queue, calls, phases, tick, advance };
}

const entries = (...names: string[]) => names.map((name) => ({ label: name, size: 100, payload: name }));

describe('the upload queue', () => {
  it('sends at most three at once; the others wait, visibly queued', async () => {
    const { queue, calls, phases, tick } = setup();
    queue.add(entries('a', 'b', 'c', 'd', 'e'));
    await tick();
    expect(calls.map((c) => c.payload)).toEqual(['a', 'b', 'c']);
    expect(phases()).toEqual(['sending', 'sending', 'sending', 'queued', 'queued']);

    calls[1]?.resolve({ jobId: 'job-b' });
    await tick();
    expect(calls.map((c) => c.payload)).toEqual(['a', 'b', 'c', 'd']);
    expect(phases()).toEqual(['sending', 'enqueued', 'sending', 'sending', 'queued']);
  });

  it('reports progress, and a wait for a rate limit with its end', async () => {
    const { queue, calls, tick } = setup();
    const [added] = queue.add(entries('a'));
    await tick();
    calls[0]?.report.progress(40, 200);
    expect(queue.getSnapshot()[0]?.phase).toEqual({ kind: 'sending', loaded: 40, total: 200 });
    calls[0]?.report.rateLimited(2_000, 1);
    expect(queue.getSnapshot()[0]?.phase).toEqual({ kind: 'rate-limited', until: 3_000, retry: 1 });
    calls[0]?.report.progress(200, 200);
    calls[0]?.resolve({ jobId: 'job-a' });
    const done: UploadItem<string> | undefined = await added?.done;
    expect(done?.phase).toEqual({ kind: 'enqueued', jobId: 'job-a' });
  });

  it('keeps going after a failure, which can be sent again', async () => {
    const { queue, calls, phases, tick } = setup(1);
    const [first, second] = queue.add(entries('a', 'b'));
    await tick();
    const error = new Error('422');
    calls[0]?.reject(error);
    expect((await first?.done)?.phase).toEqual({ kind: 'failed', error });
    await tick();
    expect(calls.map((c) => c.payload)).toEqual(['a', 'b']);
    calls[1]?.resolve({ jobId: 'job-b' });
    expect((await second?.done)?.phase.kind).toBe('enqueued');

    queue.retry('u1');
    expect(phases()).toEqual(['queued', 'enqueued']);
    await tick();
    expect(calls.map((c) => c.payload)).toEqual(['a', 'b', 'a']);
  });

  it('cancels a queued upload without sending it, and aborts one in flight', async () => {
    const { queue, calls, phases, tick } = setup(1);
    const [first, second] = queue.add(entries('a', 'b'));
    queue.cancel('u2');
    await tick();
    queue.cancel('u1');
    expect(calls[0]?.signal.aborted).toBe(true);
    expect((await first?.done)?.phase.kind).toBe('cancelled');
    expect((await second?.done)?.phase.kind).toBe('cancelled');
    await tick();
    expect(calls.map((c) => c.payload)).toEqual(['a']);
    expect(phases()).toEqual(['cancelled', 'cancelled']);
  });

  it('takes finished uploads off the list, never those still going', async () => {
    const { queue, calls, tick } = setup();
    queue.add(entries('a', 'b'));
    await tick();
    calls[0]?.resolve({ jobId: 'job-a' });
    await tick();
    queue.dismiss('u2');
    queue.clearFinished();
    expect(queue.getSnapshot().map((item) => item.label)).toEqual(['b']);
  });

  it('tells subscribers of every change, with a new snapshot each time', async () => {
    const { queue, tick } = setup();
    const snapshots: unknown[] = [];
    const stop = queue.subscribe(() => snapshots.push(queue.getSnapshot()));
    queue.add(entries('a'));
    await tick();
    stop();
    expect(snapshots.length).toBe(2);
    expect(snapshots[0]).not.toBe(snapshots[1]);
  });
});
