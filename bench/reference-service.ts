/**
 * The reference service under load, beside the raw work it wraps, in one run:
 * - throughput (jobs per minute) for a 1-page text PDF and the fixture receipt photo, with one
 *   extraction thread, beside the same documents read by `extractDocumentText` alone (pdf.js text,
 *   tesseract OCR) on one thread: the difference is the service's overhead (HTTP, multipart,
 *   inspection, SQLite, field finding, polling); also the throughput with every core;
 * - enqueue latency, p50 and p95, of 20 concurrent 1 MB uploads;
 * - the service's peak resident memory (its process, threads included: VmHWM).
 *
 * The service runs in its own process, as `npm run reference` runs it, so that this bench's client
 * (uploads, polling) does not eat into its main thread.
 * - field accuracy, matched/total per field, on the fixture documents that have a recorded hosted
 *   result, beside the same on 40 generated invoices and receipts (text-layer PDFs the finder was not
 *   tuned on, evaluate/generated.ts; a new seed each run, printed, `FIELDS_SEED` to replay; aim:
 *   90% of printed values).
 */
import { availableParallelism } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fixturesDir } from '../src/api/testing/fixtures-dir';
import {
  formatReport,
  mergeReports,
  scoreExtraction,
  type AccuracyReport,
} from '../server/reference/evaluate/accuracy';
import { scoreGeneratedDocuments } from '../server/reference/evaluate/generated';
import { seedFromEnv } from '../server/reference/testing/generate-invoices';
import {
  closeDocumentExtraction,
  extractDocumentText,
  warmUpDocumentExtraction,
} from '../server/reference/extract/extract-document-text';
import { SAMPLE_DOCUMENTS, loadReference, samplePath } from '../server/reference/testing/fields-samples';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  waitForJob,
} from '../server/reference/testing/reference-harness';
import { startReferenceProcess, type ReferenceProcess } from '../server/reference/testing/reference-process';
import { mb, mean, ms, pct, percentile, table } from './stats';

type ReferenceService = Pick<ReferenceProcess, 'url'>;

interface Doc {
  name: string;
  bytes: Uint8Array;
  filename: string;
  mimeType: string;
  runs: number;
}

export async function benchReferenceService(): Promise<void> {
  const docs: Doc[] = [
    {
      name: '1-page text PDF',
      bytes: await textPdf(),
      filename: 'invoice.pdf',
      mimeType: 'application/pdf',
      runs: 30,
    },
    {
      name: 'receipt photo (OCR)',
      bytes: new Uint8Array(await readFile(`${fixturesDir}/file_types/receipt.jpg`)),
      filename: 'receipt.jpg',
      mimeType: 'image/jpeg',
      runs: 10,
    },
  ];

  // Raw work: the document read on this thread, nothing else.
  await warmUpDocumentExtraction();
  const raw = new Map<string, { wall: number; cpu: number }>();
  const scratch = await makeDataDir();
  for (const doc of docs) {
    const file = `${scratch.dir}/${doc.filename}`;
    await writeFile(file, doc.bytes);
    await extractDocumentText(file, doc.mimeType); // warm
    const times: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < doc.runs; i++) {
      const start = performance.now();
      await extractDocumentText(file, doc.mimeType);
      times.push(performance.now() - start);
    }
    const cpu = process.cpuUsage(cpuBefore);
    raw.set(doc.name, { wall: mean(times), cpu: (cpu.user + cpu.system) / 1000 / doc.runs });
  }
  await closeDocumentExtraction();

  const rows: string[][] = [['figure', 'service', 'baseline (raw work)', 'difference', 'aim']];
  for (const concurrency of [1, availableParallelism()]) {
    const data = await makeDataDir();
    const service = await startReferenceProcess({
      REFERENCE_DATA_DIR: data.dir,
      REFERENCE_CONCURRENCY: String(concurrency),
      REFERENCE_RATE_LIMIT_POST_PER_MINUTE: '0',
    });
    try {
      for (const doc of docs) {
        await runJobs(service, doc, 2); // warm the threads and the OCR engine
        const cpuBefore = await processCpuMs(service.child.pid);
        const perJob = (await runJobs(service, doc, doc.runs)) / doc.runs;
        const cpuPerJob = ((await processCpuMs(service.child.pid)) - cpuBefore) / doc.runs;
        const base = raw.get(doc.name) ?? { wall: Number.NaN, cpu: Number.NaN };
        if (concurrency === 1) {
          rows.push([
            `${doc.name}, 1 thread`,
            `${perMinute(perJob)} jobs/min (${ms(perJob)}/job)`,
            `${perMinute(base.wall)} docs/min (${ms(base.wall)}/doc)`,
            `${pct(perJob / base.wall - 1)} overhead`,
            '< +15%',
          ]);
          rows.push([
            `  CPU per document (all threads)`,
            ms(cpuPerJob),
            ms(base.cpu),
            `${pct(cpuPerJob / base.cpu - 1)}`,
            '',
          ]);
        } else {
          rows.push([`${doc.name}, ${concurrency} threads`, `${perMinute(perJob)} jobs/min`, '', '', '']);
        }
      }
      if (concurrency === 1) {
        const latencies = await concurrentUploads(service, 20, 1024 * 1024);
        rows.push([
          'enqueue latency, 20 concurrent 1 MB uploads',
          `p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}`,
          '',
          '',
          'p95 < 100 ms',
        ]);
        await printAccuracy(service);
      }
      rows.push([
        `peak resident memory, ${concurrency} thread${concurrency > 1 ? 's' : ''}`,
        mb(await peakResidentBytes(service.child.pid)),
        '',
        '',
        '',
      ]);
    } finally {
      await service.kill('SIGTERM');
      await data.remove();
    }
  }
  await scratch.remove();
  console.log(`\n${table(rows)}`);
}

const perMinute = (msPerJob: number): string => (60_000 / msPerJob).toFixed(0);

/** Enqueues `count` jobs at once and waits for all; the wall time in ms. */
async function runJobs(service: ReferenceService, doc: Doc, count: number): Promise<number> {
  const start = performance.now();
  const ids = await Promise.all(
    Array.from({ length: count }, async () => {
      const response = await enqueue(service, {
        modelId: INVOICE_MODEL_ID,
        file: { bytes: doc.bytes, name: doc.filename },
      });
      if (response.status !== 202)
        throw new Error(`enqueue answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { job: { id: string } }).job.id;
    }),
  );
  for (const id of ids) {
    const job = await waitForJob(service, id, 600_000);
    if (job.status !== 'Processed') throw new Error(`job ${id} ${job.status}: ${JSON.stringify(job.error)}`);
  }
  return performance.now() - start;
}

async function concurrentUploads(service: ReferenceService, count: number, size: number): Promise<number[]> {
  const bytes = await paddedPdf(size);
  return Promise.all(
    Array.from({ length: count }, async () => {
      const start = performance.now();
      const response = await enqueue(service, {
        modelId: INVOICE_MODEL_ID,
        file: { bytes, name: 'big.pdf' },
      });
      await response.arrayBuffer();
      if (response.status !== 202) throw new Error(`enqueue answered ${response.status}`);
      return performance.now() - start;
    }),
  );
}

const GENERATED_DOCUMENTS = 40;

async function printAccuracy(service: ReferenceService): Promise<void> {
  const samples: { name: string; report: AccuracyReport }[] = [];
  for (const sample of SAMPLE_DOCUMENTS) {
    const bytes = new Uint8Array(await readFile(samplePath(sample.document)));
    const response = await enqueue(service, {
      modelId: sample.modelId,
      file: { bytes, name: sample.document.split('/').at(-1) ?? 'sample' },
    });
    const { job } = (await response.json()) as { job: { id: string } };
    const done = await waitForJob(service, job.id, 600_000);
    const result: unknown = await (await get(done.result_url ?? '')).json();
    const report = scoreExtraction(
      result as Parameters<typeof scoreExtraction>[0],
      await loadReference(sample),
    );
    console.log(`\nField accuracy: ${sample.name} (${sample.document})\n${formatReport(report)}`);
    samples.push({ name: sample.name, report });
  }
  const seed = seedFromEnv();
  const generated = await scoreGeneratedDocuments(seed, GENERATED_DOCUMENTS);
  console.log(
    `\nField accuracy: ${GENERATED_DOCUMENTS} generated documents (FIELDS_SEED=${seed})\n${formatReport(generated.report)}`,
  );
  console.log(`\n${accuracyTable(mergeReports(samples), generated.report, seed)}`);
}

/** Per field, matched/total of the printed values: recorded samples beside generated documents. */
export function accuracyTable(recorded: AccuracyReport, generated: AccuracyReport, seed: number): string {
  const names = [...new Set([...recorded.fields, ...generated.fields].map((f) => f.name))];
  const cell = (report: AccuracyReport, name: string): string => {
    const f = report.fields.find((x) => x.name === name);
    return f && f.valuedTotal > 0 ? `${f.valuedMatched}/${f.valuedTotal}` : '';
  };
  const share = (r: AccuracyReport): string =>
    `${r.valuedMatched}/${r.valuedTotal} (${((100 * r.valuedMatched) / Math.max(1, r.valuedTotal)).toFixed(1)}%)`;
  return table([
    [
      'field (printed values)',
      `recorded samples (${SAMPLE_DOCUMENTS.length})`,
      `generated (${GENERATED_DOCUMENTS}, seed ${seed})`,
      'aim',
    ],
    ...names.map((name) => [name, cell(recorded, name), cell(generated, name), '']),
    ['all fields', share(recorded), share(generated), 'generated ≥ 90%, samples no drop'],
  ]);
}

async function textPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  const lines = [
    'ACME Supplies Ltd',
    'Invoice number: INV-2024-0042',
    'Date: 2024-03-14',
    'Bill to: Jessie Horne, 4312 Wood Road, New York, NY 10031',
    'Description Quantity Unit price Amount',
    'Brake cables 1 100.00 100.00',
    'Pedal arms 2 25.00 50.00',
    'Labour 3 15.00 45.00',
    'Subtotal: 195.00',
    'Tax 5%: 9.75',
    'Total: 204.75',
  ];
  lines.forEach((text, i) => page.drawText(text, { x: 60, y: 740 - i * 22, size: 12, font }));
  return pdf.save();
}

/** A valid one-page PDF of about `size` bytes (the padding is an embedded attachment). */
async function paddedPdf(size: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(await textPdf());
  const padding = new Uint8Array(size);
  for (let i = 0; i < padding.length; i++) padding[i] = (i * 2654435761) >>> 24;
  await pdf.attach(padding, 'padding.bin', { mimeType: 'application/octet-stream' });
  return pdf.save({ useObjectStreams: false });
}

/** The peak resident set of a process so far (Linux: VmHWM in /proc/<pid>/status). */
async function peakResidentBytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? Number.NaN : Number(kb) * 1024;
}

/** CPU time (user + system, every thread) a process has used so far, in ms (Linux /proc). */
async function processCpuMs(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 Hz).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
