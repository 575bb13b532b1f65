/**
 * The document of an upload (the app's `/api/v2` enqueue and `/api/v1` predict, pipelines' `/v2` and
 * `/v1` through the gateway) checked before the upstream gets any of it: the proxy holds the body
 * back (create-proxy.ts `BodyScreen`) while this reads up to the document's first bytes, and a file
 * that is no document, or not the type its part declares, is refused with `422-011`
 * (document-type.ts). Kept files are data, never a page of ours.
 *
 * Bounded: at most `SCREEN_LIMIT_BYTES` are held. A document that comes later than that (fields of
 * over a megabyte before it, or a JSON body whose document key comes after them) goes on unscreened;
 * the recorder still checks the bytes it keeps (upload-recorder.ts), and the file route sniffs them
 * again when it serves them.
 */
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { BodyScreen } from '../../proxy/create-proxy';
import { PART_PARAM_CHARSET } from '@extraction-review/server-kit/part-file-name';
import { declaredPartType, HEAD_BYTES, requireDocument } from '../files/document-type';

/** The most of a request body held back before the upstream is called. */
export const SCREEN_LIMIT_BYTES = 256 * 1024;

/**
 * The text fields of a multipart upload held while it streams: each at most `MAX_FIELD_BYTES` (busboy
 * drops the rest of a longer one, which is then not kept), at most `MAX_FIELDS` of them, and at most
 * `MAX_HELD_FIELD_BYTES` in all. The fields kept are small (model_id, alias, filename, a URL, the
 * options and webhook ids); a base64 document sent as a text field (v2 `file_base64`, v1 `document`)
 * is taken by the upstream but not kept. Before these limits, 200 fields of 64 MB each could be held.
 */
export const MAX_FIELD_BYTES = 1024 * 1024;
export const MAX_FIELDS = 50;
export const MAX_HELD_FIELD_BYTES = 2 * 1024 * 1024;

export interface ScreenTarget {
  apiVersion: 'v2' | 'v1';
  /** The file's part (multipart) or key (JSON): v2 `file` / `file_base64`, v1 `document`. */
  fileField: string;
}

export function uploadScreen(contentType: string, target: ScreenTarget): BodyScreen | undefined {
  if (/^multipart\/form-data/i.test(contentType))
    return { limit: SCREEN_LIMIT_BYTES, check: (head) => screenMultipart(head, contentType, target) };
  if (/^application\/json/i.test(contentType) || /\+json\s*(;|$)/i.test(contentType))
    return { limit: SCREEN_LIMIT_BYTES, check: (head) => screenJson(head, target) };
  return undefined;
}

/** Resolves when the file part's first bytes are a document, rejects with the 422 otherwise. */
function screenMultipart(head: Readable, contentType: string, target: ScreenTarget): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    let parser: busboy.Busboy;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      head.unpipe();
      head.resume();
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        defParamCharset: PART_PARAM_CHARSET,
        // The recorder keeps the first file part of this name; it is the one checked.
        // The same field limits as the recorder's; the head read is bounded anyway.
        limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
      });
    } catch {
      // No boundary: the upstream will say what is wrong; there is no file to look at.
      finish();
      return;
    }
    parser.on('file', (name, stream, info) => {
      // Destroyed with an error when the body is cut short: never thrown (it would stop the server).
      stream.on('error', () => undefined);
      if (name !== target.fileField) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      const decide = () => {
        try {
          requireDocument(
            new Uint8Array(Buffer.concat(chunks).subarray(0, HEAD_BYTES)),
            declaredPartType(info.mimeType),
            `#/${target.fileField}`,
          );
          finish();
        } catch (error) {
          finish(error);
        }
      };
      stream.on('data', (chunk: Buffer) => {
        if (done || bytes >= HEAD_BYTES) return;
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes >= HEAD_BYTES) decide();
      });
      stream.once('end', () => {
        // An empty file is the upstream's to refuse (`422-003`), as it always was.
        if (!done && bytes === 0) finish();
        else if (!done) decide();
      });
    });
    // The body read to its end (or broken) with no file of this name: a URL, or the upstream's to
    // refuse.
    parser.once('close', () => finish());
    parser.once('error', () => finish());
    head.once('close', () => {
      if (!head.readableEnded) finish();
    });
    head.pipe(parser);
  });
}

/**
 * A JSON body's document (`file_base64` for v2, `document` for v1: base64 or an https URL), read from
 * its first bytes: the top-level key is found with a small scanner (strings, escapes and nesting
 * followed), and its value's first base64 characters decoded.
 */
async function screenJson(head: Readable, target: ScreenTarget): Promise<void> {
  const key = target.apiVersion === 'v2' ? 'file_base64' : 'document';
  const scanner = new TopLevelStringScanner(key, Math.ceil((HEAD_BYTES * 4) / 3) + 4);
  for await (const chunk of head as AsyncIterable<Buffer>) {
    if (scanner.feed(chunk.toString('latin1'))) break;
  }
  const value = scanner.value;
  if (value === undefined || /^https?:/i.test(value)) return;
  const bytes = Buffer.from(value.slice(0, value.length - (value.length % 4)), 'base64');
  if (bytes.length === 0) return;
  requireDocument(new Uint8Array(bytes.subarray(0, HEAD_BYTES)), null, `#/${key}`);
}

/**
 * Finds the string value of one key of the top-level JSON object in text that comes in pieces, and
 * keeps its first `keep` characters (JSON escapes of base64 and URLs, `\/`, undone).
 */
class TopLevelStringScanner {
  value: string | undefined;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private text = '';
  /** The last string closed at depth 1 that may be a key. */
  private lastString: string | undefined;
  private afterColonFor: string | undefined;
  private capturing = false;

  constructor(
    private readonly key: string,
    private readonly keep: number,
  ) {}

  /** True once it has enough (the value's start, or its end). */
  feed(piece: string): boolean {
    for (const char of piece) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          this.text += char;
        } else if (char === '\\') this.escaped = true;
        else if (char === '"') {
          this.inString = false;
          if (this.capturing) {
            this.value = this.text;
            return true;
          }
          this.lastString = this.text;
        } else if (this.text.length < Math.max(this.keep, this.key.length + 1)) this.text += char;
        if (this.capturing && this.text.length >= this.keep) {
          this.value = this.text;
          return true;
        }
        continue;
      }
      if (char === '"') {
        this.inString = true;
        this.text = '';
        this.capturing = this.depth === 1 && this.afterColonFor === this.key;
        this.afterColonFor = undefined;
      } else if (char === '{' || char === '[') {
        this.depth += 1;
        this.afterColonFor = undefined;
      } else if (char === '}' || char === ']') {
        this.depth -= 1;
        if (this.depth <= 0) return true;
      } else if (char === ':' && this.depth === 1) {
        this.afterColonFor = this.lastString;
        this.lastString = undefined;
      } else if (char === ',') {
        this.lastString = undefined;
        this.afterColonFor = undefined;
      }
    }
    return false;
  }
}
