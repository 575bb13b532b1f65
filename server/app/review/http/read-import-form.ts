/**
 * The body of `POST /api/review/import` (import-routes.ts): `multipart/form-data` with
 *
 * - `metadata`: JSON, the `ImportMetadata` schema (packages/contract/src/review/schemas.ts);
 * - `result`: JSON, the upstream's answer — a v2 extraction response (with `inference`) or a v1
 *   document response (with `document`), as `metadata.apiVersion` says;
 * - `file` (optional): the document's bytes, streamed into the file storage under the new
 *   document's id as they arrive, never held in memory.
 *
 * `metadata` and `result` may come as text fields or as file parts (a JSON Blob), up to 32 MB each;
 * the file up to 100 MB, a document (PDF, JPEG, PNG, WebP, TIFF, HEIC/HEIF from its bytes, and not
 * declared as another type: `422-011` pointing at `#/file` otherwise). What does not fit is a 422 `422-008` whose `errors[]` point into the form
 * (`#/metadata/model`, `#/result/inference`, `#/file`); too large a part is a 413 `413-001`; a body
 * that is not multipart a 415 `415-001`; a broken one a 400 `400-001`. The whole body is read before
 * answering (a browser still sending its file would not see an earlier answer); past the total limit,
 * or in a broken body, the answer comes at once and closes the connection. A refused form leaves no
 * file behind.
 */
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { Context } from 'hono';
import type { z } from 'zod';
import { ImportMetadata } from '@extraction-review/contract/review/schemas';
import { ProblemError } from '@extraction-review/contract/problem';
import { declaredPartType, HeadTap, requireDocument } from '../files/document-type';
import type { FileStorage, StoredFile } from '../files/file-storage';

export const MAX_IMPORT_FILE_BYTES = 100 * 1024 * 1024;
export const MAX_IMPORT_PART_BYTES = 32 * 1024 * 1024;
/** The whole body: the file, both JSON parts, and the multipart framing around them. */
const MAX_BODY_BYTES = MAX_IMPORT_FILE_BYTES + 2 * MAX_IMPORT_PART_BYTES + 1024 * 1024;

export interface ImportForm {
  metadata: Metadata;
  result: { json: string; value: Record<string, unknown> };
  /**
   * The file, stored under `fileKey`; null when none was sent, or it was not kept (`skipFile`). Its
   * `mimeType` is the one read from its bytes (a `422-011` when they are no document).
   */
  file: (StoredFile & { name: string; mimeType: string | null }) | null;
}

type Metadata = z.output<typeof ImportMetadata>;

export interface ReadImportOptions {
  /** Where the file goes; without storage a file is read and dropped. */
  files: FileStorage | undefined;
  /** The key to store the file under: the new document's id. */
  fileKey: string;
  /**
   * Asked once the metadata is read, when the file part comes after it: true when the file need not
   * be kept (the job is in the store already), so its bytes are read past instead of stored.
   */
  skipFile?: (metadata: Metadata) => Promise<boolean>;
}

interface Issue {
  /** Into the form (`#/metadata/model`); null for the form as a whole. */
  pointer: string | null;
  detail: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const PARTS = new Set(['metadata', 'result', 'file']);

export async function readImportForm(c: Context, options: ReadImportOptions): Promise<ImportForm> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw new ProblemError(
      '415-001',
      'Send the import as multipart/form-data: a metadata part, a result part and, if kept, a file part.',
    );
  }
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge(`The request body is over ${MAX_BODY_BYTES} bytes.`, UNREAD);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // Browsers send names in UTF-8 (RFC 7578).
      defParamCharset: 'utf8',
      limits: {
        fieldSize: MAX_IMPORT_PART_BYTES,
        fileSize: MAX_IMPORT_FILE_BYTES,
        // Busboy stops at these counts: a fourth part is still seen (and refused as a duplicate or an
        // unknown part), any later one is read past.
        fields: 4,
        files: 4,
        parts: 4,
      },
    });
  } catch (error) {
    throw new ProblemError('400-001', `The multipart body cannot be read: ${describe(error)}.`, UNREAD);
  }

  const issues: Issue[] = [];
  let overLimit: string | undefined;
  const seen = new Set<string>();
  const texts = new Map<'metadata' | 'result', string>();
  /** Reading of parts that are streams (JSON parts sent as files, the file). */
  const reading: Promise<unknown>[] = [];
  let metadata: Metadata | undefined;
  let file:
    | { name: string; declared: string | null; tap: HeadTap; stored: Promise<StoredFile | undefined> }
    | undefined;
  /** The file storage's own failure: answered as such (500), not as a broken form. */
  let storageFailure: { error: unknown } | undefined;

  const take = (name: 'metadata' | 'result', text: string) => {
    texts.set(name, text);
    if (name === 'metadata') {
      const parsed = parseJson(text);
      const checked = parsed.ok ? ImportMetadata.safeParse(parsed.value) : undefined;
      if (checked?.success === true) metadata = checked.data;
    }
  };
  /** Whether this is the first part of this name (a second is refused, its bytes read past). */
  const first = (name: string): boolean => {
    if (!seen.has(name)) {
      seen.add(name);
      return true;
    }
    issues.push({ pointer: `#/${name}`, detail: `Send one ${name} part, not several.` });
    return false;
  };

  parser.on('field', (name, value, info) => {
    if (!PARTS.has(name)) {
      issues.push({ pointer: `#/${name}`, detail: 'Not a part this route takes (metadata, result, file).' });
      return;
    }
    if (!first(name)) return;
    if (name === 'file') {
      issues.push({
        pointer: '#/file',
        detail: 'Send the document as a file part (with a file name), not as text.',
      });
      return;
    }
    if (info.valueTruncated) {
      overLimit = `The ${name} part is over ${MAX_IMPORT_PART_BYTES} bytes.`;
      return;
    }
    take(name as 'metadata' | 'result', value);
  });

  parser.on('file', (name, stream, info) => {
    if (!PARTS.has(name) || !first(name)) {
      if (!PARTS.has(name))
        issues.push({
          pointer: `#/${name}`,
          detail: 'Not a part this route takes (metadata, result, file).',
        });
      stream.resume();
      return;
    }
    if (name === 'metadata' || name === 'result') {
      const part = readText(stream, MAX_IMPORT_PART_BYTES).then((text) => {
        if (text === undefined) overLimit = `The ${name} part is over ${MAX_IMPORT_PART_BYTES} bytes.`;
        else take(name, text);
      });
      part.catch(() => undefined);
      reading.push(part);
      return;
    }
    stream.once('limit', () => {
      overLimit = `The file is over ${MAX_IMPORT_FILE_BYTES} bytes.`;
    });
    const tap = new HeadTap();
    const stored = (async (): Promise<StoredFile | undefined> => {
      const { files, skipFile } = options;
      let skip = files === undefined;
      if (!skip && metadata !== undefined && skipFile !== undefined)
        skip = await skipFile(metadata).catch(() => false);
      if (files === undefined || skip) {
        // Read past: busboy goes on only once each file part is consumed.
        for await (const _chunk of stream) void _chunk;
        return undefined;
      }
      // Through a stream of our own: a storage that fails destroys it, not busboy's, which is then
      // read past to the end of the form (the answer comes after the whole request). It keeps the
      // file's first bytes, to tell its type.
      const through = tap;
      stream.pipe(through);
      try {
        return await files.save(options.fileKey, through);
      } catch (error) {
        storageFailure ??= { error };
        stream.unpipe(through);
        stream.resume();
        throw error;
      }
    })();
    file = { name: info.filename ?? '', declared: declaredPartType(info.mimeType), tap, stored };
    // Awaited once the whole form is read: until then its failure is not an unhandled one.
    stored.catch(() => undefined);
    reading.push(stored);
  });

  const body = c.req.raw.body;
  let failure: unknown;
  try {
    if (body === null) throw new ProblemError('400-001', 'The request has no body.');
    let total = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        total += chunk.length;
        if (total > MAX_BODY_BYTES)
          callback(tooLarge(`The request body is over ${MAX_BODY_BYTES} bytes.`, UNREAD));
        else callback(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(body as WebReadableStream), counter, parser);
  } catch (error) {
    failure = error;
  }
  const settled = await Promise.allSettled(reading);
  const stored = file === undefined ? undefined : await file.stored.catch(() => undefined);
  const discard = async () => {
    if (stored !== undefined) await options.files?.remove(options.fileKey);
  };

  if (failure !== undefined) {
    await discard();
    if (failure instanceof ProblemError) throw failure;
    throw new ProblemError('400-001', `The multipart body cannot be read: ${describe(failure)}.`, UNREAD);
  }
  if (storageFailure !== undefined) throw storageFailure.error;
  const broken = settled.find((outcome) => outcome.status === 'rejected');
  if (broken !== undefined) {
    await discard();
    throw (broken as PromiseRejectedResult).reason;
  }
  if (overLimit !== undefined) {
    await discard();
    throw tooLarge(overLimit);
  }
  const checked = check(texts, file === undefined ? undefined : { bytes: stored?.bytes ?? 0, kept: stored });
  issues.push(...checked.issues);
  if (issues.length > 0 || checked.form === undefined) {
    await discard();
    throw new ProblemError('422-008', 'The import is not what this route takes; see errors.', {
      errors: issues.map((issue) => ({ pointer: issue.pointer, detail: issue.detail })),
    });
  }
  // A kept file is a document, and what its part says it is (an HTML page, a script, a PDF/HTML
  // polyglot sent as text/html are refused): `mimeType` is then the type of its bytes.
  let mimeType: string | null = null;
  if (file !== undefined && stored !== undefined && stored.bytes > 0) {
    try {
      mimeType = requireDocument(file.tap.head(), file.declared, '#/file');
    } catch (error) {
      await discard();
      throw error;
    }
  }

  return {
    ...checked.form,
    file: file === undefined || stored === undefined ? null : { ...stored, name: file.name, mimeType },
  };
}

/** The parts read, checked: the metadata against its schema, the result against its API version. */
function check(
  texts: ReadonlyMap<'metadata' | 'result', string>,
  file: { bytes: number; kept: StoredFile | undefined } | undefined,
): { issues: Issue[]; form?: Omit<ImportForm, 'file'> } {
  const issues: Issue[] = [];

  let metadata: Metadata | undefined;
  const metadataText = texts.get('metadata');
  if (metadataText === undefined) {
    issues.push({ pointer: '#/metadata', detail: 'Send the metadata part (JSON).' });
  } else {
    const parsed = parseJson(metadataText);
    if (!parsed.ok) issues.push({ pointer: '#/metadata', detail: 'The metadata part is not JSON.' });
    else {
      const checked = ImportMetadata.safeParse(parsed.value);
      if (checked.success) metadata = checked.data;
      else
        for (const issue of checked.error.issues)
          issues.push({ pointer: pointer(['metadata', ...issue.path]), detail: issue.message });
    }
  }

  let result: ImportForm['result'] | undefined;
  const resultText = texts.get('result');
  if (resultText === undefined) {
    issues.push({ pointer: '#/result', detail: 'Send the result part: the upstream’s JSON answer.' });
  } else {
    const parsed = parseJson(resultText);
    if (!parsed.ok) issues.push({ pointer: '#/result', detail: 'The result part is not JSON.' });
    else if (!isObject(parsed.value))
      issues.push({ pointer: '#/result', detail: 'The result is a JSON object: the upstream’s answer.' });
    else {
      result = { json: parsed.text, value: parsed.value };
      const apiVersion = metadata?.apiVersion;
      if (apiVersion === 'v2' && !isObject(parsed.value.inference))
        issues.push({
          pointer: '#/result/inference',
          detail: 'A v2 result is an extraction response, with its inference.',
        });
      if (apiVersion === 'v1' && !isObject(parsed.value.document))
        issues.push({
          pointer: '#/result/document',
          detail: 'A v1 result is a document response, with its document.',
        });
    }
  }

  if (file !== undefined && file.kept !== undefined && file.bytes === 0)
    issues.push({
      pointer: '#/file',
      detail: 'The file is empty: send the document’s bytes, or no file part.',
    });

  return metadata === undefined || result === undefined ? { issues } : { issues, form: { metadata, result } };
}

function parseJson(text: string): { ok: true; value: unknown; text: string } | { ok: false } {
  // A byte order mark is no part of JSON (and JSON.parse refuses it): kept without it.
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(clean) as unknown, text: clean };
  } catch {
    return { ok: false };
  }
}

/** A part sent as a file, as UTF-8 text; undefined past `limit` bytes (the rest read past). */
async function readText(stream: Readable, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  let over = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) over = true;
    if (!over) chunks.push(chunk);
  }
  return over ? undefined : Buffer.concat(chunks).toString('utf8');
}

function pointer(path: readonly PropertyKey[]): string {
  return `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * An answer given before the whole request was read: the connection is closed after it, so that the
 * client does not send its next request after the rest of this one.
 */
const UNREAD = { headers: { Connection: 'close' } };

function tooLarge(detail: string, options: { headers?: Record<string, string> } = {}): ProblemError {
  return new ProblemError('413-001', detail, options);
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
