/**
 * The enqueue-time check of an uploaded file: its type from its bytes and its real page count, or a
 * clear problem (`422-002` unsupported type, `422-003` empty, damaged, encrypted or undecodable), so
 * that a client learns at once what it would otherwise learn from a failed job.
 *
 * It runs in a small pool of its own (two threads, heap-capped, started at warm-up or on first use), apart
 * from the extraction threads: an upload never waits behind a long OCR job, and a pathological PDF
 * (pdf.js rebuilding the cross-reference table of 24 MB of zeros needs ~0.9 GB of heap) costs a thread,
 * not the process.
 *
 * Cost, two cores, warm thread (docs/reference-documents.md): 1–15 ms for a PDF (pdf.js opens it and
 * counts pages; a damaged one is rebuilt first), 3–5 ms for an 800 × 1066 JPEG (decoded at 1/8 scale),
 * 10–15 ms for the same picture as PNG or TIFF (decoded in full, without keeping the pixels), 25–100 ms
 * for HEIC (decoded in WASM, ~0.05–0.1 s a megapixel: libheif only notices a cut file when decoding). A
 * cold thread first costs ~0.3 s, and ~1 s more for its first PDF (loading pdf.js): call
 * `warmUpDocumentInspection()` at start, which starts both.
 */
import type { DocumentInfo } from './document-info';
import { ThreadedExtractor } from './threads/threaded-extractor';

export type { DocumentInfo } from './document-info';

/** Threads at most: inspection takes milliseconds, two keep one slow file from holding up the rest. */
const INSPECTION_THREADS = 2;
/** Heap cap per thread (libheif's memory is WASM memory, outside this cap). */
const INSPECTION_HEAP_MB = 512;

let pool: ThreadedExtractor | undefined;
const inspectionPool = (): ThreadedExtractor =>
  (pool ??= new ThreadedExtractor({
    threads: INSPECTION_THREADS,
    maxHeapMb: INSPECTION_HEAP_MB,
    kind: 'inspection',
  }));

/**
 * Type and page count of the file at `file.path`, detected from its content (a `mimeType` on `file`
 * is ignored). Throws a `ProblemError` (422-002, 422-003) when the service cannot read it; aborting
 * `signal` stops the inspection thread and rejects with the signal's reason.
 */
export function inspectDocument(file: { path: string }, signal?: AbortSignal): Promise<DocumentInfo> {
  return inspectionPool().inspect(file.path, signal);
}

/**
 * Starts every inspection thread and loads pdf.js in each, so that no upload waits for that: a cold
 * thread costs ~1 s before its first PDF, and the first burst of concurrent uploads would otherwise
 * start the second thread (the reference bench's 30 concurrent jobs took twice as long).
 */
export async function warmUpDocumentInspection(): Promise<void> {
  const pool = inspectionPool();
  // Concurrent requests: each takes a thread of its own, the second one starting it.
  await Promise.all(Array.from({ length: INSPECTION_THREADS }, () => pool.warmUpInspection()));
}
