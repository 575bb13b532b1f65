/**
 * PDFs opened by pdf.js, one open document per file, shared by whoever needs it: the review's route
 * opens its file ahead while the job and its result are still being fetched (open-ahead.ts), and the
 * viewer then takes the same open document, page 1's size already read, and draws at once. Each
 * holder lets go when done; the document is destroyed a little after the last one did, so that a
 * remount (the route's hold handed over to the viewer, a review started afresh) takes it back.
 */
import { pdfjs } from 'react-pdf';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { pdfWorkerPort, pdfWorkerUrl } from '../../../lib/pdf-worker';
import type { Size } from '@extraction-review/review-domain/viewer/geometry';

// cMaps, fonts and decoders come from our own origin, never a CDN; so does the worker, started
// early (src/lib/pdf-worker.ts) and handed to pdf.js as its port: one worker for every document,
// which outlives each document's loading task (pdf.js destroys only the workers it created itself),
// as in pdf.js's own viewer. The worker's address stays for where workers do not exist.
pdfjs.GlobalWorkerOptions.workerSrc = pdfWorkerUrl.toString();
const port = pdfWorkerPort();
const worker = port && typeof pdfjs.PDFWorker === 'function' ? pdfjs.PDFWorker.create({ port }) : undefined;

const options = {
  cMapUrl: '/pdfjs/cmaps/',
  standardFontDataUrl: '/pdfjs/standard_fonts/',
  wasmUrl: '/pdfjs/wasm/',
  iccUrl: '/pdfjs/iccs/',
  ...(worker && { worker }),
};

/** How long an open document nobody holds stays open. */
const UNHELD_MS = 5_000;

export class PasswordException extends Error {
  override name = 'PasswordException';
}

export interface OpenedPdf {
  pdf: PDFDocumentProxy;
  /** Page 1's size in PDF points, `/Rotate` applied: what every page is assumed to be at first. */
  first: Size;
}

interface Entry {
  holders: number;
  opened: Promise<OpenedPdf>;
  /** Once opened: read by a first render, so that it draws without waiting for the promise. */
  value?: OpenedPdf;
  timer?: ReturnType<typeof setTimeout>;
  close(): void;
}

const entries = new Map<Blob, Entry>();

function open(file: Blob): Entry {
  let task: PDFDocumentLoadingTask | undefined;
  let closed = false;
  const load = async (): Promise<OpenedPdf> => {
    const data = new Uint8Array(await file.arrayBuffer());
    if (closed) throw new Error('The document was closed while it opened.');
    // No `onPassword`: pdf.js then refuses a protected PDF (react-pdf would prompt for the password).
    task = pdfjs.getDocument({ data, ...options });
    let pdf: PDFDocumentProxy;
    try {
      pdf = await task.promise;
    } catch (error) {
      const protectedPdf = error instanceof Error && error.name === 'PasswordException';
      throw protectedPdf ? new PasswordException('The PDF needs a password to open.') : error;
    }
    const first = (await pdf.getPage(1)).getViewport({ scale: 1 });
    return { pdf, first: { width: first.width, height: first.height } };
  };
  const entry: Entry = {
    holders: 0,
    opened: load(),
    close: () => {
      closed = true;
      void task?.destroy();
    },
  };
  entry.opened.then(
    (value) => (entry.value = value),
    // A document that could not be opened is not kept: the next holder tries again.
    () => entries.get(file) === entry && entries.delete(file),
  );
  return entry;
}

/** Holds `file` open, opening it first if nobody has; `release` lets go of it (once). */
export function holdPdf(file: Blob): { opened: Promise<OpenedPdf>; release: () => void } {
  let entry = entries.get(file);
  if (!entry) {
    entry = open(file);
    entries.set(file, entry);
  }
  clearTimeout(entry.timer);
  entry.holders++;
  const held = entry;
  let released = false;
  return {
    opened: held.opened,
    release: () => {
      if (released) return;
      released = true;
      held.holders--;
      if (held.holders > 0) return;
      clearTimeout(held.timer);
      held.timer = setTimeout(() => {
        if (held.holders > 0 || entries.get(file) !== held) return;
        entries.delete(file);
        held.close();
      }, UNHELD_MS);
    },
  };
}

/** The document open for `file` already, if it is: what a first render draws from. */
export function openedPdf(file: Blob): OpenedPdf | undefined {
  return entries.get(file)?.value;
}

/**
 * Whether a page paints pictures (a logo, a stamp, a scan under a text layer), from the operators the
 * viewer draws it with (pdf.js keeps them for the page once drawn): the words printed in them are in
 * no text layer (pick/text-layer-first.ts asks the app server for them).
 */
export async function paintsPictures(page: PDFPageProxy): Promise<boolean> {
  const { OPS } = pdfjs;
  const paints = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObjectGroup,
  ]);
  const { fnArray } = await page.getOperatorList();
  return fnArray.some((fn) => paints.has(fn));
}
