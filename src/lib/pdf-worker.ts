/**
 * The pdf.js worker: one per page, started as soon as a review is known to be coming (the app's
 * address says so, or a review's route mounts), so that its 1.2 MB script is fetched, compiled and
 * run on its own thread while the app boots and fetches the job, not after the viewer's code has
 * loaded. pdf.js is handed it as its port (src/features/review/viewer/pdf-open.ts). Only the
 * worker's address is in the start page's bundle, none of pdf.js.
 */

/** The worker's script, emitted by the build with a hashed name. */
export const pdfWorkerUrl = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url);

let started: Worker | null | undefined;

/** The page's pdf.js worker, started on the first call; null where workers do not exist (tests). */
export function pdfWorkerPort(): Worker | null {
  // Kept apart from `new Worker(...)`: Vite would otherwise bundle the script as a worker of its own.
  const url = pdfWorkerUrl;
  started ??= typeof Worker === 'undefined' ? null : new Worker(url, { type: 'module' });
  return started;
}
