/**
 * Reads a multipart form, streaming the one file part to disk as it arrives (never the whole upload in
 * memory) and keeping its first bytes to detect the type. Text parts are kept as strings, every value
 * of a repeated name in order (`webhook_ids` may be sent once per id).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { PART_PARAM_CHARSET, partFileName } from '@extraction-review/server-kit/part-file-name';
import { ProblemError } from '@extraction-review/contract/problem';
import { SNIFF_BYTES } from '@extraction-review/document-text/sniff-mime-type';

export interface UploadedFile {
  /** The part's filename, as the client sent it. */
  filename: string;
  size: number;
  /** The first bytes of the file, for type detection. */
  head: Uint8Array;
  /** The file went past the size limit; what is on disk is cut short. */
  truncated: boolean;
}

export interface UploadForm {
  /** Every value of each text part, in the order sent. */
  fields: Map<string, string[]>;
  /** Text parts longer than their limit (their value is cut short). */
  oversized: Set<string>;
  file: UploadedFile | undefined;
}

export interface UploadOptions {
  /** Name of the part that carries the file. */
  fileField: string;
  /** Where to write the file part. */
  destination: string;
  maxFileBytes: number;
  /** Limit of a text part, in bytes. */
  maxFieldBytes: number;
  /** Text parts allowed to be longer (a `file_base64`), with their own limit in bytes. */
  largeFields?: Readonly<Record<string, number>>;
}

const MAX_FIELDS = 200;

export function readUploadForm(request: Request, options: UploadOptions): Promise<UploadForm> {
  const largeFields = options.largeFields ?? {};
  const fieldSize = Math.max(options.maxFieldBytes, ...Object.values(largeFields));
  return new Promise((resolve, rejectNow) => {
    let fileStream: WriteStream | undefined;
    let failed = false;
    /**
     * A refusal leaves nothing on disk, whichever finishes first: the parser failing (and the caller
     * discarding the part) may come before the file stream has even opened its file, which it would
     * then create, empty, after the caller's removal. So the stream is closed first, then the file
     * removed, then the refusal reported.
     */
    const reject = (error: unknown) => {
      if (failed) return;
      failed = true;
      const stream = fileStream;
      const closed =
        stream === undefined || stream.closed
          ? Promise.resolve()
          : new Promise<void>((done) => stream.once('close', () => done()));
      stream?.destroy();
      void closed
        .then(() => rm(options.destination, { force: true }))
        .catch(() => undefined)
        .finally(() => rejectNow(error));
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': request.headers.get('content-type') ?? '' },
        // Names arrive as UTF-8 bytes from browsers, curl and fetch (partFileName reads them).
        defParamCharset: PART_PARAM_CHARSET,
        limits: { fileSize: options.maxFileBytes, files: 1, fields: MAX_FIELDS, fieldSize },
      });
    } catch (error) {
      reject(new ProblemError('400-001', `Malformed multipart request: ${(error as Error).message}`));
      return;
    }

    const fields = new Map<string, string[]>();
    const oversized = new Set<string>();
    let file: UploadedFile | undefined;
    let fileWritten: Promise<void> = Promise.resolve();

    parser.on('field', (name, value, info) => {
      const limit = largeFields[name] ?? options.maxFieldBytes;
      if (info.valueTruncated || Buffer.byteLength(value) > limit) oversized.add(name);
      fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.fileField || file) {
        stream.resume(); // other file parts are not part of the API: drained and dropped
        return;
      }
      const uploaded: UploadedFile = {
        filename: partFileName(info.filename ?? ''),
        size: 0,
        head: new Uint8Array(),
        truncated: false,
      };
      file = uploaded;
      const headChunks: Buffer[] = [];
      let headLength = 0;
      const observe = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          uploaded.size += chunk.length;
          if (headLength < SNIFF_BYTES) {
            headChunks.push(chunk);
            headLength += chunk.length;
          }
          callback(null, chunk);
        },
      });
      stream.on('limit', () => {
        uploaded.truncated = true;
      });
      fileStream = createWriteStream(options.destination);
      fileWritten = pipeline(stream, observe, fileStream).then(() => {
        uploaded.head = new Uint8Array(Buffer.concat(headChunks).subarray(0, SNIFF_BYTES));
      });
      // Awaited on 'close'; if the parser fails first, the rejection below is the one reported.
      fileWritten.catch(() => undefined);
    });
    parser.on('fieldsLimit', () => {
      reject(new ProblemError('400-001', `The multipart body has more than ${MAX_FIELDS} fields.`));
    });
    // Also without a body to pipe: an 'error' event nobody listens to would crash the process.
    parser.on('error', (error: unknown) => {
      reject(
        new ProblemError('400-001', `The multipart body could not be read: ${(error as Error).message}`),
      );
    });
    parser.on('close', () => {
      // After a refusal, 'close' still comes: the refusal stands.
      fileWritten.then(() => {
        if (!failed) resolve({ fields, oversized, file });
      }, reject);
    });

    if (!request.body) {
      parser.end();
      return;
    }
    const body = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
    pipeline(body, parser).catch((error: unknown) => {
      // Either the client went away mid-upload or the multipart syntax is broken.
      reject(
        new ProblemError('400-001', `The multipart body could not be read: ${(error as Error).message}`),
      );
    });
  });
}
