/**
 * The test's side of review-server-process.ts: wait for one of its messages, and measure its resident
 * memory over a run (a baseline after a collection, then the peak and what is left after another).
 */
import type { ChildProcess } from 'node:child_process';
import type { ReviewServerMessage } from './review-server-process';

export function nextMessage<T extends ReviewServerMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ReviewServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ReviewServerMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as Extract<ReviewServerMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`the app server exited (${code})`)));
  });
}

/** The server's RSS growth over `run`: at its peak, and once garbage is collected after it. */
export async function measureServer<T>(
  child: ChildProcess,
  run: () => Promise<T>,
): Promise<{ result: T; peak: number; after: number }> {
  const baseline = nextMessage(child, 'baseline');
  child.send('baseline');
  await baseline;
  const result = await run();
  const report = nextMessage(child, 'report');
  child.send('report');
  const { baseline: start, peak, after } = await report;
  return { result, peak: peak - start, after: after - start };
}
