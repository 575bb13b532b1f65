/**
 * What a stored file is, read from its bytes: its type and its real page count, or the problem that
 * makes it unreadable. In-process and cheap (milliseconds for ordinary files): the pages are counted
 * and checked, not read. `inspect-document.ts` runs it in a thread for the API layer; the file is read
 * synchronously, which blocks the calling thread meanwhile.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ProblemError } from '@extraction-review/contract/problem';
import { inspectImage } from './image-pages';
import { openPdf } from './pdf-document';
import { requireSupportedType, SNIFF_BYTES } from './sniff-mime-type';

export interface DocumentInfo {
  /** Detected from the content (sniff-mime-type.ts). */
  mimeType: string;
  /** PDF pages, TIFF pages (every image of the file), 1 for other pictures. At least 1. */
  pageCount: number;
}

/**
 * Throws a `ProblemError`: `422-002` for a type the service does not read (the detail says what the
 * file looks like), `422-003` for an empty, damaged, encrypted or undecodable document.
 */
export async function readDocumentInfo(path: string, signal?: AbortSignal): Promise<DocumentInfo> {
  signal?.throwIfAborted();
  const { mimeType, pdfBytes } = readForInspection(path);
  signal?.throwIfAborted();
  if (pdfBytes) {
    const pdf = await openPdf(pdfBytes);
    try {
      return { mimeType, pageCount: pdf.pageCount };
    } finally {
      await pdf.close();
    }
  }
  const { pageCount } = await inspectImage(path, mimeType);
  return { mimeType, pageCount };
}

/**
 * The type from the file's first and last bytes and, for a PDF (which pdf.js reads whole), all of its
 * bytes, through one descriptor with synchronous reads. This runs in an inspection thread that has
 * nothing else to do meanwhile, where each asynchronous step (open, stat, two reads, close, then
 * `readFile`'s own four) was a round trip through libuv's thread pool, two thread wake-ups each: ~0.15
 * ms of CPU per upload in all, measured (~0.01 ms this way).
 */
function readForInspection(path: string): { mimeType: string; pdfBytes?: Uint8Array } {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size === 0) throw new ProblemError('422-003', 'The file is empty (0 bytes).');
    const ends = Math.min(size, SNIFF_BYTES);
    const mimeType = requireSupportedType(readAt(fd, ends, 0), readAt(fd, ends, size - ends));
    return mimeType === 'application/pdf' ? { mimeType, pdfBytes: readAt(fd, size, 0) } : { mimeType };
  } finally {
    closeSync(fd);
  }
}

/** `length` bytes from `position` (fewer if the file is shorter now). */
function readAt(fd: number, length: number, position: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, bytes, read, length - read, position + read);
    if (n === 0) return bytes.subarray(0, read);
    read += n;
  }
  return bytes;
}
