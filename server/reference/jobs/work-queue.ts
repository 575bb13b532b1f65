/**
 * An in-process queue with bounded concurrency. Nothing is lost if the process stops with tasks still
 * waiting: those jobs stay `Processing` in the store and are resumed at the next start
 * (JobService.resumeInterrupted).
 */
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('reference');

export class WorkQueue {
  private readonly waiting: (() => Promise<void>)[] = [];
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error('concurrency must be a positive integer');
  }

  push(task: () => Promise<void>): void {
    if (this.closed) return;
    this.waiting.push(task);
    this.pump();
  }

  /** Drops waiting tasks and waits for the running ones. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.concurrency) {
      const task = this.waiting.shift();
      if (!task) return;
      const run: Promise<void> = task()
        .catch((error: unknown) => logger.error({ err: error }, 'a queued task failed'))
        .finally(() => {
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
  }
}
