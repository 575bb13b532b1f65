/**
 * The document of a v1 `predict`/`predict_async` request, put on disk at the FileStore's part path
 * (spec §4.2): a multipart file part `document`, or JSON `{ "document": "<base64>" }` or
 * `{ "document": "https://..." }`. The v2 machinery does the work: the streaming multipart reader,
 * the base64 decoder, the SSRF-safe downloader and the upload inspection (an unusable file is an
 * error now, not a failed job). A request that carries no usable document is a 400 (400-002), as
 * the hosted v1 API answers.
 */
import { z } from 'zod';
import { ProblemError } from '@extraction-review/contract/problem';
import { downloadUrl, tooLarge } from '../fetch/download-url';
import type { UrlInputOptions } from '../routes/enqueue';
import { decodeBase64 } from '../routes/enqueue-params';
import { inspectUpload } from '../routes/inspect-upload';
import { readUploadForm } from '../routes/multipart-upload';
import type { FileStore } from '../store/file-store';
import { readJsonObject } from '../routes/read-json-body';

export interface V1InputDeps {
  files: FileStore;
  maxFileBytes: number;
  urlInput: UrlInputOptions;
}

export interface StoredDocument {
  filename: string;
  mimeType: string;
}

/** The hosted service's URL limits (spec §8): public HTTPS, at most 2048 characters. */
const HttpsUrl = z.url({ protocol: /^https$/ }).max(2048);
const MAX_TEXT_BYTES = 64 * 1024;

const invalid = (details: string): ProblemError => new ProblemError('400-002', details);

/** Reads the request's document into `files.partPath(id)` and inspects it; the caller commits. */
export async function storeV1Document(
  request: Request,
  id: string,
  deps: V1InputDeps,
): Promise<StoredDocument> {
  const contentType = request.headers.get('content-type') ?? '';
  const maxBase64Chars = Math.ceil(deps.maxFileBytes / 3) * 4 + 64;
  let text: string | undefined;
  let filename: string | undefined;
  if (/^multipart\/form-data\b/i.test(contentType)) {
    const form = await readUploadForm(request, {
      fileField: 'document',
      destination: deps.files.partPath(id),
      maxFileBytes: deps.maxFileBytes,
      maxFieldBytes: MAX_TEXT_BYTES,
      largeFields: { document: maxBase64Chars },
    });
    if (form.file?.truncated || form.oversized.has('document'))
      throw tooLarge(deps.maxFileBytes, '#/document');
    filename = form.fields.get('filename')?.[0];
    if (form.file) {
      if (form.file.size === 0) throw invalid('The document part is empty.');
      return inspected(id, deps, filename ?? (form.file.filename.trim() || 'document'), request.signal);
    }
    text = form.fields.get('document')?.[0];
  } else if (/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    const body = await readJson(request, maxBase64Chars + MAX_TEXT_BYTES, deps.maxFileBytes);
    const document = body['document'];
    if (document !== undefined && typeof document !== 'string') {
      throw invalid('document must be a string: base64 content or an https:// URL.');
    }
    text = document;
    const name = body['filename'];
    if (typeof name === 'string' && name.trim() !== '') filename = name.trim();
  } else {
    throw new ProblemError(
      '415-001',
      'Send the document as multipart/form-data (part "document") or application/json ({ "document": ... }).',
    );
  }

  if (text === undefined || text.trim() === '') {
    throw invalid('document is required: a file part, base64 content or an https:// URL.');
  }
  const trimmed = text.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    if (!HttpsUrl.safeParse(trimmed).success) {
      throw invalid('document URL must be a public https:// URL of at most 2048 characters.');
    }
    const downloaded = await downloadUrl(
      trimmed,
      deps.files.partPath(id),
      { ...deps.urlInput, maxBytes: deps.maxFileBytes },
      request.signal,
    );
    return inspected(id, deps, filename ?? downloaded.filename, request.signal);
  }
  const bytes = decodeBase64(trimmed);
  if (!bytes || bytes.length === 0) throw invalid('document is neither valid base64 nor an https:// URL.');
  if (bytes.length > deps.maxFileBytes) throw tooLarge(deps.maxFileBytes, '#/document');
  await deps.files.writePart(id, bytes);
  return inspected(id, deps, filename ?? 'document', request.signal);
}

async function inspected(id: string, deps: V1InputDeps, filename: string, signal: AbortSignal) {
  const info = await inspectUpload(deps.files.partPath(id), '#/document', signal);
  return { filename, mimeType: info.mimeType };
}

function readJson(
  request: Request,
  maxBytes: number,
  maxFileBytes: number,
): Promise<Record<string, unknown>> {
  return readJsonObject(request, maxBytes, {
    tooLarge: () => tooLarge(maxFileBytes, '#/document'),
    notAnObject: () => invalid('The body must be a JSON object with a "document" member.'),
  });
}
