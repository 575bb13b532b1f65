/**
 * The app server alone in a child process, so a test can measure its resident memory without the
 * test's own client and upstream in the same heap. Started by streaming.test.ts with
 * `node --import tsx --expose-gc`; configured through APP_SERVER_OPTIONS (JSON of AppOptions).
 *
 * IPC messages: it sends { type: 'ready', url } once listening. It answers 'baseline' (collect
 * garbage, then take the current RSS as the baseline and reset the peak) and 'report' (baseline and
 * peak RSS since, sampled every 5 ms).
 */
import { createApp, type AppOptions } from '@extraction-review/app-server/create-app';
import { listen } from '@extraction-review/app-server/listen';

export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'baseline'; rss: number }
  | { type: 'report'; baseline: number; peak: number };

const send = (message: ChildMessage) => process.send?.(message);

const options = JSON.parse(process.env.APP_SERVER_OPTIONS ?? '{}') as AppOptions;
const server = await listen(createApp(options), { host: '127.0.0.1', port: 0 });

let baseline = process.memoryUsage.rss();
let peak = baseline;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
setInterval(sample, 5);

process.on('message', (message) => {
  if (message === 'baseline') {
    globalThis.gc?.();
    globalThis.gc?.();
    baseline = process.memoryUsage.rss();
    peak = baseline;
    send({ type: 'baseline', rss: baseline });
  } else if (message === 'report') {
    sample();
    send({ type: 'report', baseline, peak });
  }
});
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});

send({ type: 'ready', url: server.url });
