/**
 * The app server with a review store, alone in a child process, so that an attack test can measure the
 * server's own resident memory (VmRSS of /proc/self/status) and not the test's client. Started by
 * server/app/body-limits.test.ts and upload-limits.test.ts with `node --import tsx --expose-gc`;
 * configured through REVIEW_SERVER_OPTIONS (JSON: the store's settings, the upstream, the webhook
 * secret, whether uploads are kept).
 *
 * IPC: it sends { type: 'ready', url } once listening. It answers 'baseline' (collect garbage, take
 * the RSS as the baseline, reset the peak) and 'report' (collect garbage, then the baseline, the peak
 * sampled every 5 ms since, and the RSS now).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mountReview } from '@extraction-review/app-server/review/http/mount-review';
import { openReview } from '@extraction-review/app-server/review/open-review';
import { createApp, type UpstreamTarget } from '@extraction-review/app-server/create-app';
import { listen } from '@extraction-review/app-server/listen';

export type ReviewServerMessage =
  | { type: 'ready'; url: string }
  | { type: 'baseline'; rss: number }
  | { type: 'report'; baseline: number; peak: number; after: number };

export interface ReviewServerOptions {
  store: { databaseUrl?: string | undefined; dataDir: string };
  upstream?: UpstreamTarget;
  /** The v2 webhook receiver's secret; unset, no receiver. */
  webhookSecret?: string;
  /** Keep what operators and pipelines upload (the intake's recorder, under the store's incoming/). */
  intake?: boolean;
}

const send = (message: ReviewServerMessage) => process.send?.(message);

/** The process's resident set, as the kernel counts it. */
function residentBytes(): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb === undefined ? process.memoryUsage.rss() : Number(kb) * 1024;
}

const options = JSON.parse(process.env.REVIEW_SERVER_OPTIONS ?? '{}') as ReviewServerOptions;
const review = await openReview(options.store);
const app = createApp({
  upstream: options.upstream ? { v2: options.upstream, v1: options.upstream } : {},
  staticDir: null,
  ...(options.webhookSecret === undefined
    ? {}
    : { webhooks: { v2: { secret: options.webhookSecret, ids: [] } } }),
  review: mountReview(
    review,
    options.intake === true ? { intake: { tempDir: path.join(options.store.dataDir, 'incoming') } } : {},
  ),
});
const server = await listen(app, { host: '127.0.0.1', port: 0 });

let baseline = residentBytes();
let peak = baseline;
const sample = () => {
  peak = Math.max(peak, residentBytes());
};
setInterval(sample, 5).unref();

const collect = () => {
  globalThis.gc?.();
  globalThis.gc?.();
};

process.on('message', (message) => {
  if (message === 'baseline') {
    collect();
    baseline = residentBytes();
    peak = baseline;
    send({ type: 'baseline', rss: baseline });
  } else if (message === 'report') {
    sample();
    collect();
    send({ type: 'report', baseline, peak, after: residentBytes() });
  }
});
process.on('disconnect', () => {
  void server.close().then(async () => {
    await review.close();
    process.exit(0);
  });
});

send({ type: 'ready', url: server.url });
