import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { ProblemError } from '@extraction-review/contract/problem';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import { makeDataDir } from '@extraction-review/test-kit/reference/reference-harness';
import { createDocumentExtractor } from '../extract-document-text';
import { THREAD_YOUNG_GENERATION_MB, ThreadedExtractor } from './threaded-extractor';

let data: Awaited<ReturnType<typeof makeDataDir>>;
let threads: ThreadedExtractor;
let invoicePath: string;
let hugePath: string;

beforeAll(async () => {
  data = await makeDataDir();
  // A low heap cap, so that a few megabytes of junk exhaust it quickly.
  threads = new ThreadedExtractor({ threads: 1, maxHeapMb: 192 });
  invoicePath = path.join(data.dir, 'invoice.pdf');
  const pdf = await generatePdf([
    { lines: [{ text: 'Invoice number: T-1', x: 72, y: 700 }] },
    { lines: [{ text: 'Total: 3.50', x: 72, y: 700 }] },
  ]);
  await writeFile(invoicePath, pdf.bytes);
  // pdf.js rebuilds the cross-reference table of a file without one by scanning it all: ~35 bytes of
  // heap per byte of a run without line breaks (it reads the run as one token).
  hugePath = path.join(data.dir, 'huge.pdf');
  await writeFile(
    hugePath,
    Buffer.concat([
      Buffer.from(
        '%PDF-1.7\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
          '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n',
      ),
      Buffer.alloc(24 * 1024 * 1024),
      Buffer.from('\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
    ]),
  );
});
afterAll(async () => {
  await threads.close();
  await data.remove();
});

const pdfFile = (p: string) => ({ path: p, mimeType: 'application/pdf' });
/** The process's OS threads (Linux), worker threads included. */
const threadCount = (): number => readdirSync('/proc/self/task').length;

describe('ThreadedExtractor', () => {
  it('answers exactly what the extractor answers in-process', async () => {
    const inThread = await threads.extract(pdfFile(invoicePath));
    expect(inThread).toEqual(await createDocumentExtractor().extract(pdfFile(invoicePath)));
    expect(inThread.pages.map((p) => p.words.map((w) => w.text).join(' '))).toEqual([
      'Invoice number: T-1',
      'Total: 3.50',
    ]);
  });

  it('passes problems through as problems', async () => {
    await expect(threads.extract({ path: invoicePath, mimeType: 'image/png' })).rejects.toMatchObject({
      code: '422-003',
      message: expect.stringMatching(/^The image cannot be decoded/),
    });
    await expect(threads.extract({ path: invoicePath, mimeType: 'text/plain' })).rejects.toBeInstanceOf(
      ProblemError,
    );
  });

  it('contains a thread that runs out of heap: the job fails, the process and the pool go on', async () => {
    // Three times: on Node 24 with V8's own young generation (192 MB), about one such run in three
    // ended the whole process (FATAL ERROR: Reached heap limit) instead of the thread.
    for (let run = 1; run <= 3; run++) {
      const failure = await threads.extract(pdfFile(hugePath)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProblemError);
      expect(failure).toMatchObject({
        code: '422-003',
        message: 'The document is too large or too complex to read: its reading needed more than 192 MB.',
      });
      expect((await threads.extract(pdfFile(invoicePath))).pageCount).toBe(2);
    }
  });

  it('sizes every thread’s heap itself, the young generation too (V8’s default differs by Node version)', async () => {
    const started = new Promise<Worker>((resolve) => process.once('worker', resolve));
    const sized = new ThreadedExtractor({ threads: 1, maxHeapMb: 96, kind: 'inspection' });
    try {
      expect(await sized.inspect(invoicePath)).toMatchObject({ pageCount: 2 });
      // Read while the thread is up (an exited one reports {}).
      expect((await started).resourceLimits).toMatchObject({
        maxOldGenerationSizeMb: 96,
        maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB,
      });
    } finally {
      await sized.close();
    }
  });

  it('runs OCR in the thread (its own tesseract worker), and an abort stops that worker too', async () => {
    const receipt = { path: path.join(fixturesDir, 'file_types', 'receipt.jpg'), mimeType: 'image/jpeg' };
    const read = await threads.extract(receipt);
    expect(read.pages[0]?.words.map((w) => w.text)).toEqual(expect.arrayContaining(['Total', '£10.20']));
    // One extraction thread and its tesseract worker's thread are now up.
    const withOcr = threadCount();

    const controller = new AbortController();
    const reason = new ProblemError('500-002', 'Too slow.');
    const scanned = {
      path: path.join(fixturesDir, 'v1/products/invoices/invoice_10p.pdf'),
      mimeType: 'application/pdf',
    };
    const running = threads.extract(scanned, controller.signal);
    setTimeout(() => controller.abort(reason), 1_500);
    await expect(running).rejects.toBe(reason);
    // Both OS threads end: the extraction thread and the tesseract worker it started.
    await expect.poll(threadCount, { timeout: 5_000, interval: 100 }).toBeLessThanOrEqual(withOcr - 2);
    expect((await threads.extract(receipt)).pages[0]?.words.length).toBe(read.pages[0]?.words.length);
  });

  it('lets a request that times out while waiting for a thread leave the queue, never to run', async () => {
    const busy = new AbortController();
    const running = threads.extract(pdfFile(hugePath), busy.signal);
    const waiting = new AbortController();
    const reason = new ProblemError('500-003', 'Waited too long.');
    const queued = threads.extract(pdfFile(invoicePath), waiting.signal);
    waiting.abort(reason);
    await expect(queued).rejects.toBe(reason);
    busy.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect((await threads.extract(pdfFile(invoicePath))).pageCount).toBe(2);
  });

  it('stops the thread of an aborted extraction, with the abort reason, and goes on', async () => {
    const controller = new AbortController();
    const reason = new ProblemError('500-002', 'Too slow.');
    const running = threads.extract(pdfFile(hugePath), controller.signal);
    setTimeout(() => controller.abort(reason), 50);
    await expect(running).rejects.toBe(reason);
    expect((await threads.extract(pdfFile(invoicePath))).pageCount).toBe(2);
  });
});
