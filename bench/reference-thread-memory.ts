/**
 * What each thread of the reference service costs in resident memory (RSS, Linux): the process's
 * VmRSS before and after starting each thread type, and after each one's first document. Threads share
 * the process, so the deltas are the threads' costs. Run it with the settings the npm scripts start
 * the service with (package.json), else the figures are those of a process without them:
 * `MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=4 --import tsx bench/reference-thread-memory.ts`.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import { generatePdf } from '@extraction-review/test-kit/reference/generate-pdf';
import { makeDataDir } from '@extraction-review/test-kit/reference/reference-harness';
import { inspectDocument, warmUpDocumentInspection } from '@extraction-review/document-text/inspect-document';
import { ThreadedExtractor } from '@extraction-review/document-text/threads/threaded-extractor';

const vm = (field: string): number => {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) / 1024;
};
const settle = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 500));
};

async function main(): Promise<void> {
  const data = await makeDataDir();
  const pdfPath = `${data.dir}/invoice.pdf`;
  await writeFile(
    pdfPath,
    (await generatePdf([{ lines: [{ text: 'Invoice number: T-1', x: 72, y: 700 }] }])).bytes,
  );
  const receipt = { path: `${fixturesDir}/file_types/receipt.jpg`, mimeType: 'image/jpeg' };
  const rows: [string, number][] = [];
  let last = vm('VmRSS');
  const step = async (name: string): Promise<void> => {
    await settle();
    const now = vm('VmRSS');
    rows.push([name, now - last]);
    console.log(`${name.padEnd(58)} ${(now - last).toFixed(0).padStart(5)} MB   (RSS ${now.toFixed(0)} MB)`);
    last = now;
  };
  console.log(`main thread idle (tsx, modules of this script)          RSS ${last.toFixed(0)} MB`);
  await inspectDocument({ path: pdfPath }).then(() =>
    step('inspection thread 1: started, first PDF inspected'),
  );
  await warmUpDocumentInspection();
  await step('inspection thread 2: started and warmed up (pdf.js)');
  const pool = new ThreadedExtractor({ threads: 1, maxHeapMb: 2048 });
  await pool.warmUpInspection();
  await step('extraction thread: started, pdf.js loaded');
  await pool.extract({ path: pdfPath, mimeType: 'application/pdf' });
  await step('extraction thread: after a 1-page text PDF');
  for (let i = 0; i < 20; i++) await pool.extract({ path: pdfPath, mimeType: 'application/pdf' });
  await step('extraction thread: after 20 more text PDFs');
  await pool.warmUp();
  await step('extraction thread: OCR engine warmed up (tesseract)');
  await pool.extract(receipt);
  await step('extraction thread: after an OCR job (receipt photo)');
  for (let i = 0; i < 3; i++) await pool.extract(receipt);
  await step('extraction thread: after 3 more OCR jobs');
  console.log(`peak (VmHWM) ${vm('VmHWM').toFixed(0)} MB`);
  await pool.close();
  await step('extraction thread closed');
  await data.remove();
  process.exit(0);
}

await main();
