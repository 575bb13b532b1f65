import { describe, expect, it } from 'vitest';
import { captureLogs } from '@extraction-review/test-kit/log-capture';
import { WorkQueue } from './work-queue';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WorkQueue', () => {
  it('runs at most `concurrency` tasks at once, and all of them', async () => {
    const queue = new WorkQueue(2);
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    for (let i = 0; i < 6; i++) {
      queue.push(async () => {
        running++;
        peak = Math.max(peak, running);
        await tick();
        running--;
        done.push(i);
      });
    }
    while (done.length < 6) await tick();
    expect(peak).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('keeps going after a failed task', async () => {
    const queue = new WorkQueue(1);
    const done: string[] = [];
    const logs = captureLogs();
    try {
      queue.push(() => Promise.reject(new Error('boom')));
      queue.push(async () => {
        done.push('after');
      });
      await tick(20);
    } finally {
      logs.restore();
    }
    expect(done).toEqual(['after']);
    expect(logs.records()).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: 'a queued task failed',
        err: expect.objectContaining({ message: 'boom' }),
      }),
    );
  });

  it('close() waits for running tasks and drops waiting ones', async () => {
    const queue = new WorkQueue(1);
    const done: string[] = [];
    queue.push(async () => {
      await tick(20);
      done.push('running');
    });
    queue.push(async () => {
      done.push('waiting');
    });
    await queue.close();
    expect(done).toEqual(['running']);
    queue.push(async () => {
      done.push('after close');
    });
    await tick();
    expect(done).toEqual(['running']);
  });
});
