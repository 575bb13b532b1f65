/**
 * POST /v2/products/extraction/enqueue, in `multipart/form-data` or `application/json` (spec §4.1).
 *
 * 1. Reads the body: a multipart file part is streamed to disk as it arrives; text parts and JSON are
 *    small, but for a `file_base64`.
 * 2. Checks every parameter at once (enqueue-params.ts): one 422-001 listing each problem.
 * 3. Gets the document to disk: the upload as is, `file_base64` decoded, `url` downloaded
 *    (fetch/download-url.ts); each is held to the size limit (413-001).
 * 4. Inspects it (inspect-upload.ts): empty, unsupported, damaged, encrypted → 422 now, not a failed
 *    job; the type comes from the bytes.
 * 5. Records the job with its options and answers 202 `{ job }`.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';
import type { AddressPolicy } from '../fetch/address-policy';
import { downloadUrl, tooLarge, type Resolver } from '../fetch/download-url';
import type { JobService } from '../jobs/job-service';
import { resolveJobOptions } from '../jobs/job-options';
import type { ModelCatalog } from '../models/model-catalog';
import type { FileStore } from '../store/file-store';
import { validateEnqueue, type EnqueueRequest, type ParameterBag } from './enqueue-params';
import { inspectUpload } from './inspect-upload';
import { readUploadForm, type UploadedFile } from './multipart-upload';
import { jobJson } from './present';
import type { UrlsForRequest } from './service-urls';
import { readJsonObject } from './read-json-body';

/** The hosted service's limit (API-FACTS). */
export const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;
/** How long a `url` download may take by default. */
export const DEFAULT_URL_TIMEOUT_MS = 60_000;
/** Limit of each text parameter (a data_schema or text_context can be long, not megabytes). */
const MAX_TEXT_BYTES = 1024 * 1024;
/** Room for the other parameters and the multipart boundaries when judging a Content-Length. */
const BODY_OVERHEAD_BYTES = 2 * MAX_TEXT_BYTES;

export interface UrlInputOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Extra trusted CAs (PEM) for HTTPS downloads: tests only. */
  ca?: string;
  /** Default the system resolver: tests only. */
  resolve?: Resolver;
}

export interface EnqueueDeps {
  jobs: JobService;
  models: ModelCatalog;
  files: FileStore;
  urls: UrlsForRequest;
  maxFileBytes: number;
  urlInput: UrlInputOptions;
}

interface Stored {
  size: number;
  /** The name the document came with (part filename, URL), before the `filename` parameter. */
  name: string;
}

export function enqueueHandler(deps: EnqueueDeps) {
  /** A base64 text is a third longer than the bytes it holds. */
  const maxBase64Chars = Math.ceil(deps.maxFileBytes / 3) * 4 + 64;
  const maxBody = deps.maxFileBytes + maxBase64Chars + BODY_OVERHEAD_BYTES;

  return async (c: Context): Promise<Response> => {
    const contentType = c.req.header('content-type') ?? '';
    const multipart = /^multipart\/form-data\b/i.test(contentType);
    const json = /^application\/([\w.+-]+\+)?json\b/i.test(contentType);
    if (!multipart && !json) {
      throw new ProblemError(
        '415-001',
        'Send the request as multipart/form-data (with a file) or application/json (url or file_base64).',
      );
    }
    // Refuse an obviously oversized body before reading it.
    if (Number(c.req.header('content-length')) > maxBody) {
      throw tooLarge(deps.maxFileBytes, multipart ? '#/file' : '#/file_base64');
    }

    const id = randomUUID();
    const partPath = deps.files.partPath(id);
    try {
      let bag: ParameterBag;
      let upload: UploadedFile | undefined;
      if (multipart) {
        const form = await readUploadForm(c.req.raw, {
          fileField: 'file',
          destination: partPath,
          maxFileBytes: deps.maxFileBytes,
          maxFieldBytes: MAX_TEXT_BYTES,
          largeFields: { file_base64: maxBase64Chars },
        });
        if (form.file?.truncated) throw tooLarge(deps.maxFileBytes, '#/file');
        if (form.oversized.has('file_base64')) throw tooLarge(deps.maxFileBytes, '#/file_base64');
        upload = form.file;
        bag = {
          encoding: 'multipart',
          values: form.fields,
          oversized: form.oversized,
          filePart: !!form.file,
        };
      } else {
        bag = await readJsonBag(c.req.raw, maxBody - deps.maxFileBytes, deps.maxFileBytes);
      }

      const request = validateEnqueue(bag, deps.models);
      const pointer = `#/${request.source.kind}`;
      const stored = await store(request, upload, id, deps, c.req.raw.signal);
      const inspected = await inspectUpload(partPath, pointer, c.req.raw.signal);
      await deps.files.commit(id);
      const job = deps.jobs.enqueue({
        id,
        model: request.model,
        filename: request.filename ?? stored.name,
        alias: request.alias,
        mimeType: inspected.mimeType,
        fileSize: stored.size,
        options: resolveJobOptions(request.model, request.options),
        webhookIds: request.webhookIds,
      });
      return c.json({ job: jobJson(job, deps.urls(c), deps.jobs.webhooksOf(job)) }, 202);
    } catch (error) {
      await deps.files.discard(id);
      throw error;
    }
  };
}

/** Puts the document at `partPath`, whichever way it came. */
async function store(
  request: EnqueueRequest,
  upload: UploadedFile | undefined,
  id: string,
  deps: EnqueueDeps,
  signal: AbortSignal,
): Promise<Stored> {
  const { source } = request;
  switch (source.kind) {
    case 'file':
      if (!upload) throw new Error('validated multipart enqueue without a file part');
      return { size: upload.size, name: upload.filename.trim() || 'file' };
    case 'file_base64':
      if (source.bytes.length > deps.maxFileBytes) throw tooLarge(deps.maxFileBytes, '#/file_base64');
      await deps.files.writePart(id, source.bytes);
      return { size: source.bytes.length, name: 'document' };
    case 'url': {
      const downloaded = await downloadUrl(
        source.url,
        deps.files.partPath(id),
        { ...deps.urlInput, maxBytes: deps.maxFileBytes },
        signal,
      );
      return { size: downloaded.size, name: downloaded.filename };
    }
  }
}

/**
 * The JSON body as a parameter bag, read with a size cap (a `file_base64` makes it large). Not JSON, or
 * not an object: 400-001 / 422-001.
 */
async function readJsonBag(request: Request, maxBytes: number, maxFileBytes: number): Promise<ParameterBag> {
  const value = await readJsonObject(request, maxBytes, {
    tooLarge: () => tooLarge(maxFileBytes, '#/file_base64'),
    notAnObject: () =>
      new ProblemError('422-001', 'One or more fields failed validation.', {
        errors: [{ pointer: '#', detail: 'the body must be a JSON object' }],
      }),
  });
  return {
    encoding: 'json',
    values: new Map(Object.entries(value).map(([name, v]) => [name, [v]])),
    oversized: new Set(),
    filePart: false,
  };
}
