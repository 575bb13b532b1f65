/**
 * Documents enter the review store as the app (or a pipeline, through the gateway) uploads them: the
 * proxy hands this recorder a copy of every enqueue and predict request body as it streams upstream,
 * then the upstream's answer. A multipart body is parsed as it comes, its file written into the file
 * storage under the document's id; a JSON body waits in a temporary file. When the upstream took the
 * document (v2 202, v1 201/202), the document enters the queue as `processing` (a v1 synchronous
 * prediction with its result, routed), tagged with who sent it; the job follower (job-follower.ts)
 * then waits for its result. Anything else is forgotten, its file removed.
 *
 * The copy never delays the upload beyond the pace of the storage (it is a tee), and what goes wrong
 * with it before the upstream's answer is logged, not answered.
 *
 * Durability: an accepted upload is kept before its answer leaves (the proxy waits for `answered`'s
 * promise): its file is saved (the storage's `save` resolves once the file is durable) and its row
 * committed, then the client gets the upstream's `202` (v1 `201`/`202`). So a `kill -9` at any moment
 * loses no acknowledged document; a crash between the upstream's answer and the commit leaves a job
 * upstream whose client got no answer (and re-sends), and a file no document names, which the start's
 * sweep removes (files/orphan-files.ts). When keeping fails, the client gets `503-001` instead of the
 * `202`, and the log names the upstream's job (docs/gateway.md, "Durability").
 *
 * Kept files are data, never a page of ours: before the upstream gets an upload, its document's first
 * bytes are checked (upload-screen.ts; `422-011` for a file that is no document or not what its part
 * declares). What is kept is checked again from its own bytes: a file that is no document is not kept
 * (the document enters without a file), and the type recorded is the one its bytes say, never the
 * one declared.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'hono';
import { z } from 'zod';
import type { ExchangeRecorder, ExchangeRecording } from '../../proxy/create-proxy';
import { PART_PARAM_CHARSET, partFileName } from '@extraction-review/server-kit/part-file-name';
import type { FileStorage } from '../files/file-storage';
import type { ReviewContext } from '../review-context';
import { integrationOf } from '../gateway/integration-auth';
import { currentSession } from './session-auth';
import { setRoutedResult } from '../routing/route-result';
import type { ApiVersion } from '../model/review-types';
import { declaredPartType, documentTypeOf, HEAD_BYTES, HeadTap } from '../files/document-type';
import { ProblemError } from '@extraction-review/contract/problem';
import { countFields } from '../intake/count-fields';
import { upstreamIdentity } from '../intake/upstream-identity';
import { MAX_FIELD_BYTES, MAX_FIELDS, MAX_HELD_FIELD_BYTES, uploadScreen } from '../intake/upload-screen';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review intake');

// The app's own uploads (/api/…) and pipelines' through the gateway (/v2, /v1 of the app server).
const V2_ENQUEUE = /^(?:\/api)?\/v2\/products\/extraction\/enqueue\/?$/;
const V1_PREDICT = /^(?:\/api)?\/v1\/products\/([^/]+)\/([^/]+)\/v?(\d+)\/(predict|predict_async)\/?$/;

interface Target {
  apiVersion: ApiVersion;
  modelKey: string | undefined;
  fileField: string;
  sync: boolean;
}

function targetOf(c: Context): Target | undefined {
  if (c.req.method !== 'POST') return undefined;
  const pathname = new URL(c.req.url).pathname;
  if (V2_ENQUEUE.test(pathname))
    return { apiVersion: 'v2', modelKey: undefined, fileField: 'file', sync: false };
  const v1 = V1_PREDICT.exec(pathname);
  if (v1 === null) return undefined;
  const [, account = '', name = '', version = '', mode] = v1;
  return {
    apiVersion: 'v1',
    modelKey: `${decodeURIComponent(account)}/${decodeURIComponent(name)}/v${version}`,
    fileField: 'document',
    sync: mode === 'predict',
  };
}

export interface RecorderDeps {
  review: ReviewContext;
  files: FileStorage;
  /** Where request copies wait for the upstream's answer (APP_DATA_DIR/incoming). */
  tempDir: string;
  /** Told of each new `processing` document, so that its job is followed at once. */
  onDocument?: (documentId: string) => void;
}

export function uploadRecorder(deps: RecorderDeps): ExchangeRecorder {
  return {
    begin(c) {
      const target = targetOf(c);
      if (target === undefined) return undefined;
      const documentId = randomUUID();
      const contentType = c.req.header('content-type') ?? '';
      const sink = new PassThrough();
      // A multipart body is read as it streams: its file goes straight into the file storage, under
      // the document's id, while the upstream receives the same bytes (no copy written and read again,
      // which under twenty concurrent 1 MB uploads cost more than the proxying itself). A JSON body is
      // one value: it waits in a temporary file for the upstream's answer.
      const input = /^multipart\/form-data/i.test(contentType)
        ? readMultipart(
            sink,
            contentType,
            target,
            (source) => deps.files.save(documentId, source),
            () => deps.files.remove(documentId),
          )
        : readJson(sink, deps.tempDir, target, (source) => deps.files.save(documentId, source));
      input.catch(() => undefined);
      // Who sent it, read now: the gateway's integration, or the operator of the request's cookie.
      const integrationId = integrationOf(c)?.id ?? null;
      const uploader =
        integrationId !== null
          ? Promise.resolve(null)
          : currentSession(c, deps.review).then(
              (session) => session?.operator.id ?? null,
              () => null,
            );
      /** The upstream did not take it: whatever was stored goes. */
      const forget = () =>
        void input.then(
          (read) => (read.stored === undefined ? undefined : deps.files.remove(documentId)),
          () => deps.files.remove(documentId),
        );
      const recording: ExchangeRecording = {
        body: sink,
        screen: uploadScreen(contentType, target),
        answered: ({ status, json, upstreamUrl, upstreamIdentity: identity }) => {
          const accepted = target.apiVersion === 'v2' ? status === 202 : status === 201 || status === 202;
          if (!accepted || json === undefined) {
            forget();
            return;
          }
          // Kept before the answer leaves (the proxy waits for this): the client's 202 means stored.
          return keepOrRefuse(deps, target, {
            documentId,
            input,
            answer: json,
            uploader,
            integrationId,
            upstreamId: identity ?? upstreamIdentity(upstreamUrl),
          });
        },
        failed: () => {
          sink.destroy();
          forget();
        },
      };
      return recording;
    },
  };
}

const V2Answer = z.object({
  job: z.object({ id: z.string(), filename: z.string().nullish(), alias: z.string().nullish() }),
});
const V1Answer = z.object({
  job: z.object({ id: z.string() }).optional(),
  document: z.object({ id: z.string(), name: z.string().optional() }).loose().optional(),
});

interface Exchange {
  documentId: string;
  /** The request as sent: its fields, and its file already in the file storage. */
  input: RequestInput;
  answer: string;
  uploadedBy: string | null;
  integrationId: string | null;
  /** Which upstream took it (upstream-identity.ts): never its key. */
  upstreamId: string;
}

/**
 * Keeps an accepted upload, or refuses the answer: the upstream's job exists then, but the document is
 * not in the store, so the client gets `503-001` (and re-sends) rather than a `202` that is not true.
 * The log line names the job, the integration and the model, enough to find the job upstream. A file
 * already saved is removed only when the store says no document names it (a commit whose answer was
 * lost may have happened); otherwise it is left to the start's sweep, which checks the same.
 */
async function keepOrRefuse(
  deps: RecorderDeps,
  target: Target,
  pending: Omit<Exchange, 'input' | 'uploadedBy'> & {
    input: Promise<RequestInput>;
    uploader: Promise<string | null>;
  },
): Promise<void> {
  const { documentId, answer } = pending;
  try {
    await keep(deps, target, {
      ...pending,
      input: await pending.input,
      uploadedBy: await pending.uploader,
    });
  } catch (error) {
    const job = jobIdOf(answer);
    logger.error(
      {
        err: error,
        api_version: target.apiVersion,
        job_id: job ?? null,
        model: target.modelKey ?? null,
        integration_id: pending.integrationId ?? null,
        document_id: documentId,
      },
      'an upload taken upstream could not be kept; its client is answered 503-001',
    );
    const named = await deps.review.queue.find(documentId).then(
      (row) => row !== undefined,
      () => true,
    );
    if (!named) await deps.files.remove(documentId).catch(() => undefined);
    throw new ProblemError(
      '503-001',
      `The ${target.apiVersion} upstream took the document${job === undefined ? '' : ` (job ${job})`}, ` +
        'but the review store could not keep it: it is not kept. Send it again.',
      { cause: error, headers: { 'Retry-After': '5' } },
    );
  }
}

/** The upstream's job id in an accepted answer, for the log and the refusal. */
function jobIdOf(answer: string): string | undefined {
  try {
    const parsed = z.object({ job: z.object({ id: z.string() }) }).safeParse(JSON.parse(answer));
    return parsed.success ? parsed.data.job.id : undefined;
  } catch {
    return undefined;
  }
}

async function keep(deps: RecorderDeps, target: Target, exchange: Exchange): Promise<void> {
  const { review } = deps;
  const { documentId, input, upstreamId } = exchange;
  const answer: unknown = JSON.parse(exchange.answer);
  const now = review.clock.now();

  if (target.apiVersion === 'v2') {
    const { job } = V2Answer.parse(answer);
    await review.queue.addDocument(
      {
        id: documentId,
        apiVersion: 'v2',
        modelKey: input.fields.get('model_id') ?? 'unknown',
        // The name the browser sent (read as UTF-8) before the upstream's echo of it, which may have
        // been decoded otherwise.
        fileName:
          input.fileName ?? input.fields.get('filename') ?? job.filename ?? urlName(input.fields.get('url')),
        alias: job.alias ?? input.fields.get('alias') ?? null,
        mimeType: input.mimeType,
        fileKey: input.stored === undefined ? null : documentId,
        fileBytes: input.stored?.bytes ?? null,
        fileSha256: input.stored?.sha256 ?? null,
        upstreamJobId: job.id,
        uploadedBy: exchange.uploadedBy,
        integrationId: exchange.integrationId,
        upstreamId,
      },
      now,
    );
    deps.onDocument?.(documentId);
    return;
  }

  const parsed = V1Answer.parse(answer);
  await review.queue.addDocument(
    {
      id: documentId,
      apiVersion: 'v1',
      modelKey: target.modelKey ?? 'unknown',
      fileName: input.fileName ?? parsed.document?.name ?? urlName(input.fields.get('document')),
      mimeType: input.mimeType,
      fileKey: input.stored === undefined ? null : documentId,
      fileBytes: input.stored?.bytes ?? null,
      fileSha256: input.stored?.sha256 ?? null,
      upstreamJobId: parsed.job?.id ?? null,
      uploadedBy: exchange.uploadedBy,
      integrationId: exchange.integrationId,
      upstreamId,
    },
    now,
  );
  if (target.sync && parsed.document !== undefined) {
    // A synchronous prediction brought its result with it (routed as the job follower routes results).
    const counts = countFields('v1', answer);
    await setRoutedResult(
      review,
      documentId,
      { json: exchange.answer, resultId: parsed.document.id, ...counts },
      now,
    );
  } else {
    deps.onDocument?.(documentId);
  }
}

interface RequestInput {
  fields: Map<string, string>;
  fileName: string | undefined;
  /** The kept file's type, read from its bytes; null when no file is kept. */
  mimeType: string | null;
  stored: { bytes: number; sha256: string } | undefined;
}

type Save = (source: Readable) => Promise<{ bytes: number; sha256: string }>;

/**
 * A JSON body (a base64 document, v2 `file_base64` or v1 `document`, or a URL), waiting in a
 * temporary file until it has all come: it is parsed whole, once, and its document stored.
 */
async function readJson(
  source: Readable,
  tempDir: string,
  target: Target,
  save: Save,
): Promise<RequestInput> {
  await mkdir(tempDir, { recursive: true });
  const copy = path.join(tempDir, `${randomUUID()}.body`);
  try {
    await pipeline(source, createWriteStream(copy));
    const body = JSON.parse(await readFile(copy, 'utf8')) as Record<string, unknown>;
    const fields = new Map<string, string>();
    for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields.set(key, value);
    const base64 = target.apiVersion === 'v2' ? fields.get('file_base64') : fields.get('document');
    const isUrl = base64 !== undefined && /^https:\/\//i.test(base64);
    const bytes = base64 !== undefined && !isUrl ? Buffer.from(base64, 'base64') : undefined;
    // Only a document is kept, under the type its bytes say (a JSON body declares none).
    const mimeType = bytes === undefined ? undefined : documentTypeOf(bytes.subarray(0, HEAD_BYTES), null);
    const stored =
      bytes !== undefined && mimeType !== undefined ? await save(Readable.from([bytes])) : undefined;
    return { fields, fileName: fields.get('filename'), mimeType: mimeType ?? null, stored };
  } finally {
    await rm(copy, { force: true });
  }
}

/** A multipart body read as it streams: its text fields, and its file streamed into storage. */
function readMultipart(
  source: Readable,
  contentType: string,
  target: Target,
  save: Save,
  discard: () => Promise<void>,
): Promise<RequestInput> {
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    let fileName: string | undefined;
    let declared: string | null = null;
    const tap = new HeadTap();
    let stored: Promise<{ bytes: number; sha256: string }> | undefined;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Names arrive as UTF-8 bytes from browsers, curl and fetch (partFileName reads them).
        defParamCharset: PART_PARAM_CHARSET,
        limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
      });
    } catch (error) {
      // A content type busboy cannot read (no boundary): the upstream will say so; nothing to keep.
      source.resume();
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    let held = 0;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || fields.has(name)) return;
      held += value.length;
      if (held > MAX_HELD_FIELD_BYTES) return;
      fields.set(name, value);
    });
    parser.on('file', (name, stream, info) => {
      // A body cut short (over the proxy's limit, the client gone) destroys the part's stream with an
      // error: without a listener it would be thrown, and take the server down (seen in the attack
      // test). The kept file's copy then fails, and is removed.
      if (name !== target.fileField || stored !== undefined) {
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      stream.once('error', (error) => tap.destroy(error));
      tap.on('error', () => undefined); // the storage's pipeline reports it (it may not have begun)
      fileName = info.filename === undefined ? undefined : partFileName(info.filename);
      declared = declaredPartType(info.mimeType);
      stored = save(stream.pipe(tap));
      stored.catch(() => {
        stream.unpipe(tap);
        stream.resume();
      });
    });
    parser.once('error', (error) => {
      source.unpipe(parser);
      source.resume();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
    parser.once('close', () => {
      Promise.resolve(stored)
        .then(async (file) => {
          // Kept only when its bytes are a document and what its part declared: under their type.
          const mimeType = file === undefined ? undefined : documentTypeOf(tap.head(), declared);
          if (file !== undefined && mimeType === undefined) await discard();
          resolve({
            fields,
            fileName,
            mimeType: mimeType ?? null,
            stored: mimeType === undefined ? undefined : file,
          });
        })
        .catch(reject);
    });
    // The request cut short (the client or the upstream gone): the parser never closes on its own.
    source.once('error', (error) => parser.destroy(error));
    source.once('close', () => {
      if (!source.readableEnded) parser.destroy(new Error('the request body was cut short'));
    });
    source.pipe(parser);
  });
}

/** The last path segment of a URL input, as the document's name. */
function urlName(url: string | undefined): string {
  if (url === undefined) return 'document';
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).at(-1);
    return last === undefined ? url : decodeURIComponent(last);
  } catch {
    return 'document';
  }
}
