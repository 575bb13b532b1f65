/**
 * What a kept file is, told from its bytes with the reference service's sniffer (never from its name
 * or the type its sender declared): kept files are data, never a page of ours (issue 18).
 *
 * - At intake (uploads through the proxy, pipelines' gateway calls, imports), `requireDocument`
 *   refuses with `422-011` a file that is not a document the service reads (HTML, SVG, script, text)
 *   or whose declared type is not what its bytes are (a PDF/HTML polyglot declared `text/html`).
 * - When served, `servedType` gives the type from the bytes again: a row kept before these checks,
 *   with its sender's type, is still served as what it is.
 */
import { Readable, Transform } from 'node:stream';
import {
  declaredTypeFits,
  describeUnsupported,
  SNIFF_BYTES,
  sniffMimeType,
  SUPPORTED_MIME_TYPES,
  SUPPORTED_TYPES_TEXT,
} from '@extraction-review/document-text/sniff-mime-type';
import { ProblemError } from '@extraction-review/contract/problem';

/** How many leading bytes the sniffer reads. */
export const HEAD_BYTES = SNIFF_BYTES;

const SUPPORTED = new Set<string>(SUPPORTED_MIME_TYPES);

/**
 * The file's type from its first bytes, checked against what its sender declared: the sniffed type,
 * or a `422-011` whose error points at the file's part (`pointer`).
 */
export function requireDocument(
  head: Uint8Array,
  declared: string | null | undefined,
  pointer: string,
): string {
  const sniffed = sniffMimeType(head);
  if (sniffed === undefined || !SUPPORTED.has(sniffed)) {
    const detail =
      `The file is ${describeUnsupported(head)} (detected from its content), not a document: ` +
      `send a ${SUPPORTED_TYPES_TEXT} file.`;
    throw new ProblemError('422-011', detail, { errors: [{ pointer, detail }] });
  }
  if (!declaredTypeFits(declared, sniffed)) {
    const detail =
      `The file is declared as ${JSON.stringify(String(declared).slice(0, 100))} but its content is ` +
      `${sniffed}: send it with its own type, or as application/octet-stream.`;
    throw new ProblemError('422-011', detail, { errors: [{ pointer, detail }] });
  }
  return sniffed;
}

/**
 * The type a multipart file part declares, as busboy reports it: busboy says `text/plain` for a
 * part that has no `Content-Type` at all (RFC 7578's default), which declares nothing; a text file
 * is refused for its bytes anyway.
 */
export const declaredPartType = (busboyType: string): string | null =>
  busboyType === 'text/plain' ? null : busboyType;

/** `requireDocument`'s verdict without the problem: the sniffed type, or undefined when refused. */
export function documentTypeOf(head: Uint8Array, declared: string | null | undefined): string | undefined {
  try {
    return requireDocument(head, declared, '#/file');
  } catch {
    return undefined;
  }
}

/**
 * How a kept file is served: a document type the sniffer names, shown inline; anything else
 * `application/octet-stream`, as an attachment (a browser saves it, never renders it).
 */
export function servedType(head: Uint8Array): { contentType: string; disposition: 'inline' | 'attachment' } {
  const sniffed = sniffMimeType(head);
  return sniffed !== undefined && SUPPORTED.has(sniffed)
    ? { contentType: sniffed, disposition: 'inline' }
    : { contentType: 'application/octet-stream', disposition: 'attachment' };
}

/** A pass-through that keeps a copy of the first `HEAD_BYTES` bytes of what streams through it. */
export class HeadTap extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: null, data?: Buffer) => void,
  ) {
    if (this.kept < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    callback(null, chunk);
  }

  /** The first bytes seen so far (all of them once the stream has ended). */
  head(): Uint8Array {
    return new Uint8Array(Buffer.concat(this.chunks));
  }
}

/**
 * The first `HEAD_BYTES` bytes of a stream (fewer when it is shorter), and a stream of the whole
 * content again (the head, then the rest, still flowing with back-pressure).
 */
export async function readHead(stream: Readable): Promise<{ head: Uint8Array; whole: Readable }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let ended = false;
  while (bytes < HEAD_BYTES) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    bytes += next.value.length;
  }
  const head = new Uint8Array(Buffer.concat(chunks).subarray(0, HEAD_BYTES));
  async function* replay(): AsyncGenerator<Buffer> {
    yield* chunks;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
  const whole = Readable.from(replay(), { objectMode: false });
  // Whoever stops reading the copy (a client gone) releases the file too.
  whole.once('close', () => {
    if (!stream.destroyed) stream.destroy();
  });
  return { head, whole };
}
