/**
 * The words of a kept document's page, for picking values on it (docs/review-app.md, "Pick from the
 * page"): from the PDF's text layer where the page has one (and OCR of its pictures: a name printed
 * only in a logo), else from OCR of the page as displayed, read once and kept beside the store's files (`APP_DATA_DIR/words/<document id>/<page>.json`), so
 * that the second click on a photo costs a file read. Works the same whether the result came from
 * the embedded reference service or a hosted upstream (which returns no word boxes): only the kept
 * file is read, offline, by the reference service's own readers (packages/document-text/src/).
 *
 * Boxes are normalised to the page as displayed (PDF `/Rotate` and CropBox applied, photos turned by
 * their EXIF orientation), origin top-left: the frame of a v2 polygon, which the review's geometry
 * module turns further for v1 pages stored turned.
 *
 * The reading itself (pdf.js, sharp, tesseract) runs in a thread of its own, never on the app server's
 * thread: one large page took this thread's event loop for over 10 s and 8 GB before. The thread reads
 * within the document limits (DOCUMENT_MAX_*: a `422-012` for a document over them) and within a
 * time limit (a `500-003` after 60 s, the thread stopped and replaced); see docs/review-app.md.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PageWordsResponse } from '@extraction-review/contract/review/page-words';
import { documentLimits, type DocumentLimits } from '@extraction-review/document-text/document-limits';
import type { PageText, Word } from '@extraction-review/document-text/extractor';
import type { ThreadedExtractor } from '@extraction-review/document-text/threads/threaded-extractor';
import { ProblemError } from '@extraction-review/contract/problem';
import type { ReviewDatabase } from '../db/open-database';
import type { FileStorage } from '../files/file-storage';
import { systemClock, type Clock } from '@extraction-review/server-kit/clock';
import { findPageWords, keepPageWords } from '../store/page-words-store';

export interface KeptDocument {
  id: string;
  fileKey: string;
  mimeType: string;
}

/**
 * Bumped when what is kept changes shape: older files are then read again. 2: a text-layer page's
 * words include those read in its pictures (`inPicture`), each page is read on its own, and a picture
 * taken sideways is read upright (`turn`).
 */
const CACHE_VERSION = 2;

/**
 * A page is read in this long or not at all: the first read of a scanned A4 page takes ~1–2 s, a
 * poster-sized one at the render limit ~10–20 s on a busy machine.
 */
export const PAGE_WORDS_TIMEOUT_MS = 60_000;
/** Heap cap of the page-words thread: pdf.js on a 100 MB PDF stays well within it. */
const PAGE_WORDS_HEAP_MB = 1024;

let processThreads: Promise<ThreadedExtractor> | undefined;
/**
 * The process's one page-words thread, started at the first read and kept (unref'd) for the next: a
 * pick is one page, and a second thread would double the memory of a cold engine for little.
 * Apart from the reference service's extraction threads, so that a click never waits behind a job.
 *
 * Its module is loaded at the first read too (dynamic import): an app server with hosted upstreams
 * loads none of the reading code (the pool, its esbuild bundling; the thread's pdf.js, sharp and
 * tesseract) until a page's words are asked for (app-server-modules.test.ts).
 */
function pageWordsThreads(): Promise<ThreadedExtractor> {
  processThreads ??= import('@extraction-review/document-text/threads/threaded-extractor').then(
    ({ ThreadedExtractor }) => new ThreadedExtractor({ threads: 1, maxHeapMb: PAGE_WORDS_HEAP_MB }),
    (error: unknown) => {
      processThreads = undefined; // tried again at the next read
      throw error;
    },
  );
  return processThreads;
}

export interface PageWordsOptions {
  /** What one document may cost to read (DOCUMENT_MAX_*); defaults in document-limits.ts. */
  limits?: Partial<DocumentLimits>;
  /** Default PAGE_WORDS_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The threads that read; default the process's page-words thread. */
  threads?: ThreadedExtractor;
  /**
   * Where the reading thread's copy of a file goes while it is read (the thread reads a path), removed
   * after: this machine's, never kept. Default the system's temp folder.
   */
  tempDir?: string;
  /** When a page's words were kept (`created_at`): the one clock (server-kit/clock.ts); default the system's. */
  clock?: Clock;
}

export class PageWordsReader {
  /** Pages being read now, so that two clicks at once read a page once. */
  private readonly reading = new Map<string, Promise<PageWordsResponse>>();
  private readonly limits: DocumentLimits;
  private readonly timeoutMs: number;

  private readonly tempDir: string;

  constructor(
    private readonly database: ReviewDatabase,
    private readonly files: FileStorage,
    private readonly options: PageWordsOptions = {},
  ) {
    this.limits = documentLimits(options.limits);
    this.timeoutMs = options.timeoutMs ?? PAGE_WORDS_TIMEOUT_MS;
    this.tempDir = options.tempDir ?? path.join(os.tmpdir(), 'review-page-words');
  }

  /** The page's words (0-based `page`), read once; a `404-010` for a page the document does not have. */
  async words(doc: KeptDocument, page: number): Promise<PageWordsResponse> {
    const key = `${doc.id}/${page}`;
    const cached = await this.cached(doc.id, page);
    if (cached) return cached;
    let run = this.reading.get(key);
    if (!run) {
      run = this.read(doc, page).finally(() => this.reading.delete(key));
      this.reading.set(key, run);
    }
    return run;
  }

  private async cached(id: string, page: number): Promise<PageWordsResponse | undefined> {
    const row = await findPageWords(this.database, id, page);
    if (row === undefined || row.version !== CACHE_VERSION) return undefined;
    try {
      return JSON.parse(row.words_json) as PageWordsResponse;
    } catch {
      return undefined; // read again, and kept anew
    }
  }

  /** Kept for every copy; two copies reading the same page at once both write the same words. */
  private async keep(id: string, answer: PageWordsResponse): Promise<void> {
    const row = {
      version: CACHE_VERSION,
      words_json: JSON.stringify(answer),
      created_at: (this.options.clock ?? systemClock).now(),
    };
    await keepPageWords(this.database, id, answer.page, row);
  }

  private async read(doc: KeptDocument, page: number): Promise<PageWordsResponse> {
    const opened = await this.files.open(doc.fileKey);
    // The row names a file (the caller checked): this copy's storage lacking it is an error, as for
    // the file itself (review-routes.ts), never "no file".
    if (!opened) {
      throw new ProblemError(
        '500-005',
        "The review store names a kept file for this document, but this copy's file storage has none.",
      );
    }
    // The thread reads a path (pdf.js, sharp, libheif): a copy in the temp folder, streamed (never
    // whole in this thread's memory), removed after.
    await mkdir(this.tempDir, { recursive: true });
    const copy = path.join(this.tempDir, `${doc.id}.${randomUUID()}.source`);
    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(
          new ProblemError(
            '500-003',
            `Reading the words of page ${page + 1} took longer than ${duration(this.timeoutMs)}: it was stopped.`,
          ),
        ),
      this.timeoutMs,
    );
    try {
      await pipeline(opened.stream, createWriteStream(copy), { signal: timeout.signal });
      const threads = this.options.threads ?? (await pageWordsThreads());
      const read = await threads.readPage(
        { path: copy, mimeType: doc.mimeType },
        page,
        this.limits,
        timeout.signal,
      );
      if (!read.page) throw noSuchPage(page, read.pageCount);
      const answer = answerOf(read.page, read.page.source, read.page.pictureWords ?? []);
      if (read.page.turn) answer.turn = read.page.turn;
      await this.keep(doc.id, answer);
      return answer;
    } catch (error) {
      // The pipeline's own AbortError says less than the reason.
      if (timeout.signal.aborted) throw timeout.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      await rm(copy, { force: true });
    }
  }
}

function answerOf(
  page: PageText,
  source: 'text-layer' | 'ocr',
  pictureWords: readonly Word[],
): PageWordsResponse {
  return {
    page: page.index,
    width: page.width,
    height: page.height,
    source,
    words: [
      ...page.words.map(toWord),
      ...pictureWords.map((w) => ({ ...toWord(w), inPicture: true as const })),
    ],
  };
}

function toWord({ text, box, confidence }: Word): PageWordsResponse['words'][number] {
  const r = (n: number): number => Math.round(Math.min(1, Math.max(0, n)) * 1e5) / 1e5;
  return {
    text,
    polygon: [
      [r(box.x0), r(box.y0)],
      [r(box.x1), r(box.y0)],
      [r(box.x1), r(box.y1)],
      [r(box.x0), r(box.y1)],
    ],
    confidence: Math.round(confidence * 100) / 100,
  };
}

const duration = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

function noSuchPage(page: number, count: number): ProblemError {
  return new ProblemError('404-010', `This document has ${count} page(s): there is no page ${page + 1}.`);
}
