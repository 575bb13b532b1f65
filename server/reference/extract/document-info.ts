/**
 * What a stored file is, read from its bytes: its type and its real page count, or the problem that
 * makes it unreadable. In-process and cheap (milliseconds for ordinary files): the pages are counted
 * and checked, not read. `inspect-document.ts` runs it in a thread for the API layer.
 */
import { open, readFile } from 'node:fs/promises';
import { ProblemError } from '../../shared/problem';
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
  const { head, tail, size } = await readEnds(path);
  if (size === 0) throw new ProblemError('422-003', 'The file is empty (0 bytes).');
  const mimeType = requireSupportedType(head, tail);
  signal?.throwIfAborted();
  if (mimeType === 'application/pdf') {
    const pdf = await openPdf(new Uint8Array(await readFile(path, { signal })));
    try {
      return { mimeType, pageCount: pdf.pageCount };
    } finally {
      await pdf.close();
    }
  }
  const { pageCount } = await inspectImage(path, mimeType);
  return { mimeType, pageCount };
}

async function readEnds(path: string): Promise<{ head: Uint8Array; tail: Uint8Array; size: number }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = new Uint8Array(Math.min(size, SNIFF_BYTES));
    await file.read(head, 0, head.length, 0);
    const tail = new Uint8Array(Math.min(size, SNIFF_BYTES));
    await file.read(tail, 0, tail.length, size - tail.length);
    return { head, tail, size };
  } finally {
    await file.close();
  }
}
