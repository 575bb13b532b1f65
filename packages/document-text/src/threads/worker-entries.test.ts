import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '@extraction-review/test-kit/log-capture';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import { makeDataDir } from '@extraction-review/test-kit/reference/reference-harness';
import type { WorkerReply } from './messages';
import { threadStart } from './worker-entries';

let data: Awaited<ReturnType<typeof makeDataDir>>;
let pdfPath: string;

beforeAll(async () => {
  data = await makeDataDir();
  pdfPath = path.join(data.dir, 'one.pdf');
  await writeFile(pdfPath, (await generatePdf([{ lines: [{ text: 'Total: 3.50', x: 72, y: 700 }] }])).bytes);
});

afterAll(async () => {
  await data.remove();
});

/** Starts a thread as the pool does and asks it to inspect the PDF. */
async function inspectIn(start: ReturnType<typeof threadStart>): Promise<WorkerReply> {
  const worker = new Worker(
    start.url,
    start.workerData ? { workerData: start.workerData } : { execArgv: [] },
  );
  try {
    return await new Promise<WorkerReply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage({ id: 1, type: 'inspect', path: pdfPath });
    });
  } finally {
    await worker.terminate();
  }
}

describe('how a thread starts', () => {
  it('runs the bundled entry where it can be written', async () => {
    const start = threadStart('inspection');
    expect(start.workerData).toBeUndefined();
    expect(start.url.pathname).toMatch(
      /\/node_modules\/\.cache\/reference-threads\/inspection-[0-9a-f]{16}\.mjs$/,
    );
    expect(await inspectIn(start)).toMatchObject({ id: 1, info: { pageCount: 1 } });
  });

  it('falls back to the TypeScript entry through tsx, said once, where the bundles cannot be written (a read-only node_modules)', async () => {
    const logs = captureLogs();
    const readOnly = () => {
      throw new Error("EROFS: read-only file system, mkdir 'node_modules/.cache/reference-threads'");
    };
    const start = threadStart('inspection', readOnly);
    expect(start.url.pathname).toMatch(/\/packages\/document-text\/src\/threads\/worker-bootstrap\.mjs$/);
    expect(start.workerData?.entry).toMatch(/\/inspection-worker\.ts$/);
    expect(await inspectIn(start)).toMatchObject({ id: 1, info: { pageCount: 1 } });
    // Once unwritable, not tried again (nor said again) for the next thread.
    expect(threadStart('extraction', readOnly).workerData?.entry).toMatch(/\/extraction-worker\.ts$/);
    logs.restore();
    expect(logs.messages('warn')).toHaveLength(1);
    expect(logs.messages('warn')[0]).toContain('EROFS');
  });
});
