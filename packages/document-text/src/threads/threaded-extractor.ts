/**
 * Extraction (and inspection) in worker threads. pdf.js parses on the thread that calls it, so on the main thread a big
 * document would stall every HTTP answer of the process (the app server shares it under `npm start`),
 * and a pathological file (100 MB behind a `%PDF-` header: a 3.4 GB heap in pdf.js) could take the
 * process down. In a thread the heap is capped, a crash fails one job, and a timed-out job's thread is
 * stopped instead of running on.
 *
 * A small pool: threads start on demand (the first one at warm-up), stay for the next job, and are
 * replaced when one dies. `processExtractor()` gives the one pool of the process. Threads run the
 * entries bundled as plain JavaScript (worker-entries.ts), not TypeScript through tsx.
 */
import { Worker } from 'node:worker_threads';
import { ProblemError } from '@extraction-review/contract/problem';
import type { DocumentInfo } from '../document-info';
import type { DocumentLimits } from '../document-limits';
import type { FieldQuery, FieldReader, FieldReading } from '../extract-result';
import type { DocumentText, Extractor, StoredFile } from '../extractor';
import type { Orientation } from '../ocr/orientation';
import type { PageReading } from '../read-page';
import type { WorkerReply, WorkerRequest, WorkerTask } from './messages';
import { threadStart, workerEntriesReady } from './worker-entries';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('document text');

/**
 * Each thread's young generation, in MB: set, not left to V8. Node 24's V8 makes it 192 MB (64 MB
 * semi-spaces; 48 MB on Node 20 and 22), and then the heap cap no longer protects the process: when
 * a document fills the old generation, V8 may need a whole semi-space's survivors promoted beyond the
 * cap, more than the 16 MB of leeway Node grants a thread at its limit while stopping it, and V8 ends
 * the whole process ("FATAL ERROR: Reached heap limit"; measured: 6 of 15 runs of the test's 24 MB
 * junk PDF under a 192 MB cap on Node 24.11, none with 48 MB). 48 MB is Node 20's and 22's own
 * value: 16 MB semi-spaces, within that leeway, and the sizing every figure here was measured with.
 * A `--max-semi-space-size` flag (the npm scripts give 4) still overrides it, for every thread.
 */
export const THREAD_YOUNG_GENERATION_MB = 48;

export interface ThreadedExtractorOptions {
  /** Threads at most; jobs beyond wait for one. */
  threads: number;
  /** Heap cap of each thread (its old generation; the young one is THREAD_YOUNG_GENERATION_MB), in MB. */
  maxHeapMb: number;
  /**
   * What the threads run: `extraction` (default) answers every task; `inspection` only `inspect` and
   * `warmUp`, and loads only what inspection needs (~5–15 MB less per thread).
   */
  kind?: 'extraction' | 'inspection';
}

export class ThreadedExtractor implements Extractor, FieldReader {
  private maxThreads: number;
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly waiting: ((worker: Worker) => void)[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ThreadedExtractorOptions) {
    this.maxThreads = options.threads;
  }

  /** Allows at least `threads` threads from now on. */
  reserve(threads: number): void {
    this.maxThreads = Math.max(this.maxThreads, threads);
  }

  /** The threads decide (and answer 422-002 for a type none of their extractors reads). */
  accepts(): boolean {
    return true;
  }

  /**
   * The same threads, reading every document within `limits` (document-limits.ts): what a service
   * hands its jobs, while the pool stays the process's.
   */
  within(limits: DocumentLimits): LimitedExtractor {
    return new LimitedExtractor(this, limits);
  }

  async extract(file: StoredFile, signal?: AbortSignal, limits?: DocumentLimits): Promise<DocumentText> {
    const reply = await this.request({ type: 'extract', file, limits }, signal);
    if (!('document' in reply)) throw new Error('The extraction thread answered out of turn.');
    return reply.document;
  }

  /** Words and fields found in the thread: only the (much smaller) result crosses back. */
  async readFields(
    file: StoredFile,
    query: FieldQuery,
    signal?: AbortSignal,
    limits?: DocumentLimits,
  ): Promise<FieldReading> {
    const reply = await this.request({ type: 'read', file, query, limits }, signal);
    if (!('reading' in reply)) throw new Error('The extraction thread answered out of turn.');
    return reply.reading;
  }

  /** The clockwise rotation that makes each page upright; null for a page not looked at. */
  async detectOrientations(
    file: StoredFile,
    signal?: AbortSignal,
    limits?: DocumentLimits,
  ): Promise<(Orientation | null)[]> {
    const reply = await this.request({ type: 'orient', file, limits }, signal);
    if (!('orientations' in reply)) throw new Error('The extraction thread answered out of turn.');
    return reply.orientations;
  }

  /** One page's words (read-page.ts), for the review's page words. */
  async readPage(
    file: StoredFile,
    page: number,
    limits: DocumentLimits,
    signal?: AbortSignal,
  ): Promise<PageReading> {
    const reply = await this.request({ type: 'page', file, page, limits }, signal);
    if (!('pageReading' in reply)) throw new Error('The extraction thread answered out of turn.');
    return reply.pageReading;
  }

  /** Type and page count, or the problem that makes the file unreadable (document-info.ts). */
  async inspect(path: string, signal?: AbortSignal): Promise<DocumentInfo> {
    const reply = await this.request({ type: 'inspect', path }, signal);
    if (!('info' in reply)) throw new Error('The extraction thread answered out of turn.');
    return reply.info;
  }

  /** Loads pdf.js (with rendering) and the OCR engine in one thread. */
  async warmUp(): Promise<void> {
    await this.request({ type: 'warmUp', scope: 'extract' });
  }

  /** Loads only what inspection needs (pdf.js) in one thread. */
  async warmUpInspection(): Promise<void> {
    await this.request({ type: 'warmUp', scope: 'inspect' });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }

  private async request(task: WorkerTask, signal?: AbortSignal): Promise<WorkerReply> {
    signal?.throwIfAborted();
    const worker = await this.acquire(signal);
    try {
      // Aborted just as the thread came free: the thread goes back unused.
      signal?.throwIfAborted();
      return await this.ask(worker, { ...task, id: this.nextId++ }, signal);
    } finally {
      this.release(worker);
    }
  }

  private ask(worker: Worker, request: WorkerRequest, signal?: AbortSignal): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      const onMessage = (reply: WorkerReply): void => {
        if (reply.id !== request.id) return;
        settle();
        if ('problem' in reply) {
          const { code, detail, errors, title } = reply.problem;
          reject(new ProblemError(code, detail, { errors, title }));
        } else if ('failure' in reply) {
          reject(new Error(reply.failure));
        } else {
          resolve(reply);
        }
      };
      const onError = (error: Error & { code?: string }): void => {
        settle();
        this.discard(worker);
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ProblemError(
                '422-003',
                `The document is too large or too complex to read: its reading needed more than ${this.options.maxHeapMb} MB.`,
                { cause: error },
              )
            : error,
        );
      };
      const onExit = (code: number): void => {
        settle();
        this.discard(worker);
        reject(new Error(`The extraction thread stopped (exit code ${code}).`));
      };
      const onAbort = (): void => {
        settle();
        // The thread may be deep in pdf.js: stopping it is the only way to get it back.
        this.discard(worker);
        void worker.terminate();
        reject(signal?.reason);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(request);
    });
  }

  private async acquire(signal?: AbortSignal): Promise<Worker> {
    // Before a thread starts: its entry bundled without holding this thread's event loop (~0.15–0.45 s
    // with esbuild's synchronous build, once per process). At once when already done.
    if (this.idle.length === 0 && this.all.size < this.maxThreads) await workerEntriesReady();
    if (this.closed) throw new Error('The extractor is closed.');
    signal?.throwIfAborted();
    const worker = this.idle.pop();
    if (worker) return worker;
    if (this.all.size < this.maxThreads) return this.spawn();
    return new Promise((resolve, reject) => {
      // A request that times out while waiting for a thread leaves the queue (it would otherwise
      // run later for nobody).
      const onAbort = (): void => {
        const at = this.waiting.indexOf(take);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const take = (worker: Worker): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(worker);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  private release(worker: Worker): void {
    if (!this.all.has(worker)) {
      // It died: let a waiting request have a fresh thread instead.
      const next = this.waiting.shift();
      if (next && !this.closed) next(this.spawn());
      return;
    }
    const next = this.waiting.shift();
    if (next) next(worker);
    else this.idle.push(worker);
  }

  private spawn(): Worker {
    // Plain JavaScript (worker-entries.ts), and none of the process's flags: the threads need neither
    // the `--import tsx` the process was started with nor a hooks thread it might bring.
    const start = threadStart(this.options.kind ?? 'extraction');
    const worker = new Worker(start.url, {
      // The TypeScript fallback needs the process's flags (tsx) after all.
      ...(start.workerData ? { workerData: start.workerData } : { execArgv: [] }),
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.maxHeapMb,
        maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB,
      },
    });
    // Idle threads must not keep the process alive; close() stops them.
    worker.unref();
    // Also while idle: an 'error' nobody listens to would be thrown on the main thread.
    worker.on('error', (error) => {
      // A failure during a request is that request's answer (see ask); only an idle one is news.
      if (this.idle.includes(worker) && !this.closed)
        logger.error({ err: error }, 'an idle extraction thread failed');
      this.discard(worker);
    });
    worker.once('exit', () => this.discard(worker));
    this.all.add(worker);
    return worker;
  }

  private discard(worker: Worker): void {
    this.all.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
  }
}

/** The pool's threads reading within a service's (or the review's) document limits. */
export class LimitedExtractor implements Extractor, FieldReader {
  constructor(
    readonly threads: ThreadedExtractor,
    readonly limits: DocumentLimits,
  ) {}

  accepts(): boolean {
    return true;
  }

  extract(file: StoredFile, signal?: AbortSignal): Promise<DocumentText> {
    return this.threads.extract(file, signal, this.limits);
  }

  readFields(file: StoredFile, query: FieldQuery, signal?: AbortSignal): Promise<FieldReading> {
    return this.threads.readFields(file, query, signal, this.limits);
  }

  detectOrientations(file: StoredFile, signal?: AbortSignal): Promise<(Orientation | null)[]> {
    return this.threads.detectOrientations(file, signal, this.limits);
  }

  readPage(file: StoredFile, page: number, signal?: AbortSignal): Promise<PageReading> {
    return this.threads.readPage(file, page, this.limits, signal);
  }

  warmUp(): Promise<void> {
    return this.threads.warmUp();
  }
}

let processPool: ThreadedExtractor | undefined;

/**
 * The process's one pool, shared by every service it runs: a thread costs ~1.5 s of CPU to warm and
 * holds nothing of a service, so a restarted service (or the many a test file starts) reuses warm
 * threads. Its threads are unref'd and live as long as the process.
 */
export function processExtractor(threads: number, maxHeapMb: number): ThreadedExtractor {
  processPool ??= new ThreadedExtractor({ threads, maxHeapMb });
  processPool.reserve(threads);
  return processPool;
}
