import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProblemError } from '../../../shared/problem';
import { generatePdf } from '../../testing/generate-pdf';
import { makeDataDir } from '../../testing/reference-harness';
import { PdfTextExtractor } from '../pdf-text-extractor';
import { ThreadedExtractor } from './threaded-extractor';

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
  // pdf.js rebuilds the cross-reference table of a broken file by scanning it all: ~35 bytes of heap per byte.
  hugePath = path.join(data.dir, 'huge.pdf');
  await writeFile(hugePath, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(24 * 1024 * 1024)]));
});
afterAll(async () => {
  await threads.close();
  await data.remove();
});

const pdfFile = (p: string) => ({ path: p, mimeType: 'application/pdf' });

describe('ThreadedExtractor', () => {
  it('answers exactly what the extractor answers in-process', async () => {
    const inThread = await threads.extract(pdfFile(invoicePath));
    expect(inThread).toEqual(await new PdfTextExtractor().extract(pdfFile(invoicePath)));
    expect(inThread.pages.map((p) => p.words.map((w) => w.text).join(' '))).toEqual([
      'Invoice number: T-1',
      'Total: 3.50',
    ]);
  });

  it('passes problems through as problems', async () => {
    await expect(threads.extract({ path: invoicePath, mimeType: 'image/png' })).rejects.toMatchObject({
      code: '422-002',
    });
    await expect(threads.extract({ path: invoicePath, mimeType: 'text/plain' })).rejects.toBeInstanceOf(
      ProblemError,
    );
  });

  it('contains a thread that runs out of heap: the job fails, the process and the pool go on', async () => {
    const failure = await threads.extract(pdfFile(hugePath)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect(failure).toMatchObject({
      code: '422-003',
      message: 'The document is too large or too complex to read: its reading needed more than 192 MB.',
    });
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
