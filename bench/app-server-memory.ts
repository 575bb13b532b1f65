/**
 * `npm run bench -- app-memory`: the app server's resident memory at rest (VmRSS of its process, as
 * `npm run serve` starts it: MALLOC_ARENA_MAX=2, MALLOC_MMAP_THRESHOLD_=131072,
 * --max-semi-space-size=4), measured in the same run:
 *
 * - with hosted upstreams for both API versions (UPSTREAM_V2_URL, UPSTREAM_V1_URL: no embedded
 *   reference service), at rest, then after one page's words were read (the page-words thread, with
 *   pdf.js, sharp and tesseract, loaded on that first read: app-server-modules.test.ts);
 * - beside it, the baseline: the app server with the embedded reference service (the default), at
 *   rest once its warm-up (extraction and inspection threads) has settled.
 *
 * "At rest" is when the RSS moved less than 2 MB over 3 s (at most 45 s after listening). DEV=1, so no
 * build is needed: the static files a production server also serves cost nothing at rest. Figures are
 * printed, never asserted.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { seedKeptDocument, signIn } from '@extraction-review/test-kit/app/kept-document';
import { startMainProcess, type MainProcess } from '@extraction-review/test-kit/app/main-process';
import { table } from './stats';

/** As the npm scripts start the app server (package.json `serve`). */
const SERVE_SETTINGS = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  NODE_OPTIONS: '--max-semi-space-size=4',
};
const HOSTED = {
  // Never called: no job is sent.
  UPSTREAM_V2_URL: 'http://127.0.0.1:9',
  UPSTREAM_V2_API_KEY: 'hosted-v2-key',
  UPSTREAM_V1_URL: 'http://127.0.0.1:9',
  UPSTREAM_V1_API_KEY: 'hosted-v1-key',
};

/** The process's resident memory, in MB. */
function rssMb(main: MainProcess): number {
  const status = readFileSync(`/proc/${main.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The RSS once it has settled: less than 2 MB of change over 3 s, or whatever it is after 45 s. */
async function atRest(main: MainProcess): Promise<number> {
  const samples: number[] = [];
  const started = performance.now();
  for (;;) {
    samples.push(rssMb(main));
    const window = samples.slice(-7); // 3 s at 500 ms
    if (window.length === 7 && Math.max(...window) - Math.min(...window) < 2) return window.at(-1) ?? 0;
    if (performance.now() - started > 45_000) return samples.at(-1) ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function benchAppServerMemory(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-app-memory-'));
  const rows: string[][] = [['app server process', 'RSS at listening', 'RSS at rest']];
  try {
    const hostedDir = path.join(dir, 'hosted');
    const { documentId } = await seedKeptDocument(hostedDir);
    const hosted = await startMainProcess({ ...SERVE_SETTINGS, ...HOSTED, APP_DATA_DIR: hostedDir });
    try {
      const listening = rssMb(hosted);
      rows.push(['hosted upstreams (no embedded reference)', mb(listening), mb(await atRest(hosted))]);
      const cookie = await signIn(hosted.url);
      const words = await fetch(`${hosted.url}/api/review/documents/${documentId}/pages/0/words`, {
        headers: { Cookie: cookie },
      });
      if (words.status !== 200) throw new Error(`page words answered ${words.status}`);
      await words.arrayBuffer();
      rows.push(['  the same, after one page’s words (text PDF)', '', mb(await atRest(hosted))]);
    } finally {
      await hosted.stop();
    }
    const embedded = await startMainProcess({
      ...SERVE_SETTINGS,
      APP_DATA_DIR: path.join(dir, 'embedded'),
      REFERENCE_DATA_DIR: path.join(dir, 'reference'),
    });
    try {
      const listening = rssMb(embedded);
      rows.push([
        'baseline: embedded reference service (default)',
        mb(listening),
        mb(await atRest(embedded)),
      ]);
    } finally {
      await embedded.stop();
    }
    console.log(table(rows));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mb = (value: number): string => `${value.toFixed(0)} MB`;
