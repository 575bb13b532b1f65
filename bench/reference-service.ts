/**
 * The reference service under load, beside the raw work it wraps, in one run:
 * - throughput (jobs per minute) for a 1-page text PDF and the fixture receipt photo, with one
 *   extraction thread, beside the same documents read on one thread with nothing around them. The
 *   baseline is the work a job cannot do without: reading the text (pdf.js text layer, tesseract OCR)
 *   AND finding the model's fields in it (`readFields`, what the extraction thread runs for a job);
 *   the text read alone is printed below it. The difference is the service's overhead: HTTP,
 *   multipart, inspection at enqueue, SQLite, queueing, thread hand-offs, the client's polling. Wall
 *   time per job and CPU per job (every thread of the process: less sensitive to other processes on a
 *   shared machine) are medians of several rounds, the baseline's rounds interleaved with the
 *   service's; the difference is the median of each service round's ratio to the baseline round just
 *   before it. Also the throughput with every core;
 * - enqueue latency, p50 and p95, of 20 concurrent 1 MB uploads;
 * - the service's peak resident memory (its process, threads included: VmHWM).
 *
 * Both sides are warmed with the same number of documents first: V8 keeps optimising pdf.js and the
 * field finder for a hundred documents or more (measured: CPU per job falls by half over the first
 * ~150), so a baseline and a service warmed differently compare JIT warm-up, not overhead. The service
 * runs in its own process, as `npm run reference` runs it, and this bench's client is a lean one
 * (node:http, keep-alive, a multipart body built once) so that it takes as little as possible of the
 * cores the service shares with it; the service's own cost of each request is all counted.
 * - field accuracy, matched/total per field, on the fixture documents that have a recorded hosted
 *   result, beside the same on 40 generated invoices and receipts (text-layer PDFs the finder was not
 *   tuned on, evaluate/generated.ts; a new seed each run, printed, `FIELDS_SEED` to replay; aim:
 *   90% of printed values).
 */
import { availableParallelism } from 'node:os';
import { readFile, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fixturesDir } from '@extraction-review/test-kit/fixtures-dir';
import {
  formatReport,
  mergeReports,
  scoreExtraction,
  type AccuracyReport,
} from '@extraction-review/test-kit/evaluate/accuracy';
import { scoreGeneratedDocuments } from '@extraction-review/test-kit/evaluate/generated';
import { seedFromEnv } from '@extraction-review/test-kit/reference/generate-invoices';
import {
  closeDocumentExtraction,
  extractDocumentText,
  warmUpDocumentExtraction,
} from '@extraction-review/document-text/extract-document-text';
import { readFields, type FieldQuery } from '@extraction-review/document-text/extract-result';
import type { Extractor } from '@extraction-review/document-text/extractor';
import { DEFAULT_MODELS_FILE } from '@extraction-review/reference/create-reference-service';
import { dataSchemaOf, resolveJobOptions } from '@extraction-review/reference/jobs/job-options';
import { loadModelCatalog } from '@extraction-review/reference/models/model-catalog';
import {
  SAMPLE_DOCUMENTS,
  loadReference,
  samplePath,
} from '@extraction-review/test-kit/reference/fields-samples';
import {
  enqueue,
  get,
  INVOICE_MODEL_ID,
  makeDataDir,
  TEST_API_KEY,
  waitForJob,
} from '@extraction-review/test-kit/reference/reference-harness';
import {
  startReferenceProcess,
  type ReferenceProcess,
} from '@extraction-review/test-kit/reference/reference-process';
import { mb, ms, pct, percentile, table } from './stats';
import { accumulate, processCpuMs, since, splitThreads, threadTimes, type ThreadTime } from './thread-times';

type ReferenceService = Pick<ReferenceProcess, 'url'>;

interface Doc {
  name: string;
  bytes: Uint8Array;
  filename: string;
  mimeType: string;
  /** Documents per round: read one after the other (baseline), enqueued at once (service). */
  batch: number;
  /** Documents read before timing, on each side. */
  warmUp: number;
  /** Timed rounds; the median is reported. */
  rounds: number;
  /**
   * Whether the row of CPU by thread is printed: only where the reading runs on the extraction
   * thread itself (pdf.js's text layer), not in an OCR engine's thread of its own.
   */
  byThread: boolean;
}

/** Per round, the wall time and the CPU time per document or job, in ms. */
interface Timing {
  wall: number[];
  cpu: number[];
}

export async function benchReferenceService(): Promise<void> {
  const docs: Doc[] = [
    {
      name: '1-page text PDF',
      bytes: await textPdf(),
      filename: 'invoice.pdf',
      mimeType: 'application/pdf',
      batch: 30,
      warmUp: 150,
      rounds: 7,
      byThread: true,
    },
    {
      name: 'receipt photo (OCR)',
      bytes: new Uint8Array(await readFile(`${fixturesDir}/file_types/receipt.jpg`)),
      filename: 'receipt.jpg',
      mimeType: 'image/jpeg',
      batch: 10,
      warmUp: 4,
      rounds: 3,
      byThread: false,
    },
  ];

  // Raw work: the document read and its fields found on this thread, nothing else.
  const models = await loadModelCatalog(DEFAULT_MODELS_FILE);
  const model = models.find(INVOICE_MODEL_ID);
  if (!model) throw new Error(`no model ${INVOICE_MODEL_ID} in ${DEFAULT_MODELS_FILE}`);
  const query: FieldQuery = { schema: dataSchemaOf(model, resolveJobOptions(model)), textContext: null };
  const thisThread: Extractor = {
    accepts: () => true,
    extract: (file) => extractDocumentText(file.path, file.mimeType),
  };
  await warmUpDocumentExtraction();
  const scratch = await makeDataDir();

  const rows: string[][] = [['figure', 'service', 'baseline (raw work)', 'difference', 'aim']];
  for (const concurrency of [1, availableParallelism()]) {
    const data = await makeDataDir();
    const service = await startReferenceProcess({
      REFERENCE_DATA_DIR: data.dir,
      REFERENCE_CONCURRENCY: String(concurrency),
      REFERENCE_RATE_LIMIT_POST_PER_MINUTE: '0',
    });
    const client = new LeanClient(service.url);
    try {
      for (const doc of docs) {
        const file = { path: `${scratch.dir}/${doc.filename}`, mimeType: doc.mimeType };
        await writeFile(file.path, doc.bytes);
        const withFields = (): Promise<unknown> => readFields(thisThread, file, query);
        const textAlone = (): Promise<unknown> => extractDocumentText(file.path, file.mimeType);
        const upload = client.upload(doc);
        // Thread by thread, over the timed rounds: what each used, and how long it waited for a core.
        const serviceThreads = new Map<number, ThreadTime>();
        const baseThreads = new Map<number, ThreadTime>();
        const servicePid = service.child.pid ?? Number.NaN;
        const serviceRound = async (): Promise<[number, number]> => {
          const cpuBefore = await processCpuMs(service.child.pid);
          const threadsBefore = await threadTimes(servicePid);
          const wall = (await client.runJobs(upload, doc.batch)) / doc.batch;
          accumulate(serviceThreads, since(threadsBefore, await threadTimes(servicePid)));
          return [wall, ((await processCpuMs(service.child.pid)) - cpuBefore) / doc.batch];
        };
        // Both sides warmed with as many documents (JIT, the OCR engine).
        if (concurrency === 1) for (let i = 0; i < doc.warmUp; i++) await withFields();
        for (let left = doc.warmUp; left > 0; left -= doc.batch) {
          await client.runJobs(upload, Math.min(left, doc.batch));
        }
        // Rounds interleaved, the baseline's just before the service's: the load other processes put
        // on a shared machine changes from one second to the next, and is then alike for both.
        const timing: Timing = { wall: [], cpu: [] };
        const base: Timing = { wall: [], cpu: [] };
        const alone: Timing = { wall: [], cpu: [] };
        for (let round = 0; round < doc.rounds; round++) {
          if (concurrency === 1) {
            push(alone, await rawRound(doc, textAlone));
            push(base, await rawRound(doc, withFields, baseThreads));
          }
          push(timing, await serviceRound());
        }
        const perJob = median(timing.wall);
        if (concurrency === 1) {
          const ratios = (side: keyof Timing): number =>
            median(timing[side].map((value, i) => value / (base[side][i] ?? Number.NaN))) - 1;
          rows.push([
            `${doc.name}, 1 thread (median of ${doc.rounds} rounds of ${doc.batch})`,
            `${perMinute(perJob)} jobs/min (${ms(perJob)}/job, ${range(timing.wall)})`,
            `${perMinute(median(base.wall))} docs/min (${ms(median(base.wall))}/doc, ${range(base.wall)}), text + fields`,
            `${pct(ratios('wall'))} overhead`,
            '< +15%',
          ]);
          rows.push([
            `  CPU per document (all threads)`,
            `${ms(median(timing.cpu))} (${range(timing.cpu)})`,
            `${ms(median(base.cpu))} (${range(base.cpu)}), text + fields`,
            `${pct(ratios('cpu'))}`,
            '',
          ]);
          if (doc.byThread)
            rows.push(whereTheTimeGoes(serviceThreads, servicePid, baseThreads, doc.rounds * doc.batch));
          rows.push([
            `  of the baseline: the text read alone`,
            '',
            `${ms(median(alone.wall))}/doc, CPU ${ms(median(alone.cpu))}`,
            '',
            '',
          ]);
        } else {
          rows.push([
            `${doc.name}, ${concurrency} threads`,
            `${perMinute(perJob)} jobs/min (${ms(perJob)}/job)`,
            '',
            '',
            '',
          ]);
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
      client.close();
      await service.kill('SIGTERM');
      await data.remove();
    }
  }
  await closeDocumentExtraction();
  await scratch.remove();
  console.log(`\n${table(rows)}`);
}

/**
 * `doc.batch` reads one after the other: wall and CPU (every thread) per document, in ms; with
 * `threads`, what each of this process's threads used is added to it.
 */
async function rawRound(
  doc: Doc,
  read: () => Promise<unknown>,
  threads?: Map<number, ThreadTime>,
): Promise<[number, number]> {
  const threadsBefore = threads && (await threadTimes(process.pid));
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < doc.batch; i++) await read();
  const wall = (performance.now() - start) / doc.batch;
  const cpu = process.cpuUsage(cpuBefore);
  if (threads && threadsBefore) accumulate(threads, since(threadsBefore, await threadTimes(process.pid)));
  return [wall, (cpu.user + cpu.system) / 1000 / doc.batch];
}

/**
 * A row saying where a job's time goes, thread by thread, beside the baseline's: on a machine whose
 * cores are all busy, the extraction thread waits for one (its run delay), and V8's helper threads
 * (garbage collection, the optimizing compiler), the main thread and the inspection threads take CPU
 * from the same cores.
 */
function whereTheTimeGoes(
  service: Map<number, ThreadTime>,
  servicePid: number,
  base: Map<number, ThreadTime>,
  documents: number,
): string[] {
  const s = splitThreads(service, servicePid, documents);
  const b = splitThreads(base, process.pid, documents);
  const onCore = (t: ThreadTime) => `${ms(t.cpu)} + ${ms(t.wait)} waiting for a core`;
  return [
    '  per job, by thread',
    `extraction thread ${onCore(s.busiest)}; main thread ${ms(s.main.cpu)}; others ${ms(s.others.cpu)} (V8's helpers, inspection, libuv)`,
    `its thread ${onCore(b.main)}; others ${ms(b.others.cpu + b.busiest.cpu)} (V8's helpers)`,
    '',
    '',
  ];
}

function push(timing: Timing, [wall, cpu]: [number, number]): void {
  timing.wall.push(wall);
  timing.cpu.push(cpu);
}

const median = (values: readonly number[]): number => percentile(values, 50);

const range = (values: readonly number[]): string =>
  `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;

const perMinute = (msPerJob: number): string => (60_000 / msPerJob).toFixed(0);

/**
 * What a client does for a job (multipart upload, then polling every 25 ms with `redirect=false`, as
 * the test harness's `waitForJob`), with as little of its own CPU as it can: node:http on keep-alive
 * connections, the multipart body built once per document. fetch and FormData cost the client ~2–3 ms
 * of CPU per job, taken from the same two cores as the service.
 */
class LeanClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly base: URL;

  constructor(url: string) {
    this.base = new URL(url);
  }

  /** The multipart body of an enqueue of `doc` with the invoice model, as FormData would send it. */
  upload(doc: Doc): { body: Buffer; contentType: string } {
    const boundary = '----reference-bench-boundary-7MA4YWxkTrZu0gW';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="model_id"\r\n\r\n${INVOICE_MODEL_ID}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${doc.filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n';
    return {
      body: Buffer.concat([Buffer.from(head), doc.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
      contentType: `multipart/form-data; boundary=${boundary}`,
    };
  }

  /** Enqueues `count` jobs at once and waits for all; the wall time in ms. */
  async runJobs(upload: { body: Buffer; contentType: string }, count: number): Promise<number> {
    const start = performance.now();
    const ids = await Promise.all(
      Array.from({ length: count }, async () => {
        const { status, text } = await this.send('POST', '/v2/products/extraction/enqueue', upload);
        if (status !== 202) throw new Error(`enqueue answered ${status}: ${text}`);
        return (JSON.parse(text) as { job: { id: string } }).job.id;
      }),
    );
    for (const id of ids) {
      for (;;) {
        const { text } = await this.send('GET', `/v2/jobs/${id}?redirect=false`);
        const { job } = JSON.parse(text) as { job: { status: string; error?: unknown } };
        if (job.status === 'Processed') break;
        if (job.status !== 'Processing')
          throw new Error(`job ${id} ${job.status}: ${JSON.stringify(job.error)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    return performance.now() - start;
  }

  close(): void {
    this.agent.destroy();
  }

  private send(
    method: 'GET' | 'POST',
    path: string,
    upload?: { body: Buffer; contentType: string },
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          agent: this.agent,
          headers: {
            Authorization: TEST_API_KEY,
            ...(upload && { 'Content-Type': upload.contentType, 'Content-Length': upload.body.length }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(upload?.body);
    });
  }
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
