/**
 * The earlier prediction API (`/v1`), one plain async function per call, each with `{ signal }` and an
 * optional `client` (see v2/endpoints.ts).
 *
 * Paths write the version as `v<version>`: `/v1/products/{account}/{name}/v{version}/predict`
 * (API-FACTS v1). Feedback lives at `/v1/documents/{document_id}/feedback`.
 */
import { z } from 'zod';
import { ApiError, InvalidRequestError, V1JobFailedError } from '../errors';
import { api, segment, type ApiClient, type QueryValue } from '../http';
import { check } from '@extraction-review/contract/issues';
import {
  V1DocumentInput,
  V1DocumentResponse,
  V1EnqueueResponse,
  V1FeedbackRequest,
  V1FeedbackResponse,
  V1JobResponse,
  V1PredictResponse,
  V1ProductRef,
  V1QueueResponse,
  isEmptyV1Error,
  type V1Feedback,
  type V1Job,
} from '@extraction-review/contract/v1/schemas';

export interface CallOptions {
  signal?: AbortSignal | undefined;
  client?: ApiClient | undefined;
}

/** Options of the hosted service's prediction endpoints, as its official clients send them. */
export interface V1PredictOptions {
  /** `?cropper=true`: page-level cropper extras (fixture extras/cropper/complete.json). */
  cropper?: boolean;
  /** `?full_text_ocr=true`: the page text in extras (fixture extras/full_text_ocr/complete.json). */
  fullTextOcr?: boolean;
  /** `include_mvision`: word-level OCR in `document.ocr` (fixture extras/ocr/complete.json). */
  includeWords?: boolean;
}

/** `/v1/products/{account}/{name}/v{version}`, checked; exported for the upload with progress (upload.ts). */
export function productPath(product: V1ProductRef): string {
  const checked = check(V1ProductRef, product);
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint: 'v1 product' });
  const { account, name, version } = checked.data;
  return `/v1/products/${segment(account)}/${segment(name)}/v${segment(version)}`;
}

/** The request body: a multipart form for a file, JSON otherwise; exported for upload.ts. */
export function predictBody(input: V1DocumentInput, options: V1PredictOptions) {
  if ('file' in input) {
    const form = new FormData();
    if (options.includeWords) form.append('include_mvision', 'true');
    const name = input.filename ?? (input.file instanceof File ? input.file.name : '');
    form.append('document', input.file, name || 'document');
    return { form };
  }
  const document = 'base64' in input ? input.base64 : input.url;
  return { json: options.includeWords ? { document, include_mvision: true } : { document } };
}

function predictQuery(options: V1PredictOptions): Record<string, QueryValue> {
  return {
    cropper: options.cropper ? true : undefined,
    full_text_ocr: options.fullTextOcr ? true : undefined,
  };
}

async function postDocument<S extends z.ZodType>(
  product: V1ProductRef,
  action: 'predict' | 'predict_async',
  input: V1DocumentInput,
  options: V1PredictOptions & CallOptions,
  schema: S,
): Promise<z.output<S>> {
  const path = `${productPath(product)}/${action}`;
  const checked = check(V1DocumentInput, input);
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint: `POST ${path}` });
  const client = options.client ?? api;
  return client.request({
    method: 'POST',
    path,
    query: predictQuery(options),
    body: predictBody(checked.data, options),
    schema,
    signal: options.signal,
  });
}

/** Synchronous prediction (ready-made APIs that support it): the document in the answer. */
export function predict(
  product: V1ProductRef,
  input: V1DocumentInput,
  options: V1PredictOptions & CallOptions = {},
): Promise<V1PredictResponse> {
  return postDocument(product, 'predict', input, options, V1PredictResponse);
}

/** Asynchronous prediction: a `waiting` job with its `polling_url`. */
export function predictAsync(
  product: V1ProductRef,
  input: V1DocumentInput,
  options: V1PredictOptions & CallOptions = {},
): Promise<V1EnqueueResponse> {
  return postDocument(product, 'predict_async', input, options, V1EnqueueResponse);
}

/**
 * The queued job. Once completed the service answers 302 to the document and the browser follows it, so
 * the answer is the job (`hasDocument(body)` false) or the document with its job (true). A failed job is
 * an answer, not an error: see `v1JobFailure`.
 */
export function getQueuedJob(
  product: V1ProductRef,
  jobId: string,
  { signal, client = api }: CallOptions = {},
): Promise<V1QueueResponse> {
  return client.request({
    method: 'GET',
    path: `${productPath(product)}/documents/queue/${segment(jobId, 'job id')}`,
    schema: V1QueueResponse,
    signal,
  });
}

/** The same, from the job's `polling_url` as our app server rewrote it (`/api/v1/documents/queue/<id>`). */
export function getQueuedJobByUrl(pollingUrl: string, { signal, client = api }: CallOptions = {}) {
  return client.request({ method: 'GET', url: pollingUrl, schema: V1QueueResponse, signal });
}

/** A failed job as an error to show or throw; undefined for any other job. */
export function v1JobFailure(job: V1Job, endpoint = 'v1 job'): V1JobFailedError | undefined {
  if (job.status !== 'failed') return undefined;
  const error = isEmptyV1Error(job.error) ? { message: 'The job failed' } : job.error;
  return new V1JobFailedError(job.id, error, { endpoint });
}

const DocumentOrJob = z.union([V1DocumentResponse, V1JobResponse]);

/**
 * The document of a finished prediction. For a job that failed the service answers with the job alone
 * (async/get_failed_job_error.json): that becomes V1JobFailedError.
 */
export async function getDocument(
  product: V1ProductRef,
  documentId: string,
  { signal, client = api }: CallOptions = {},
): Promise<V1DocumentResponse> {
  const path = `${productPath(product)}/documents/${segment(documentId, 'document id')}`;
  const body = await client.request({ method: 'GET', path, schema: DocumentOrJob, signal });
  if ('document' in body) return body;
  const endpoint = `GET ${path}`;
  throw (
    v1JobFailure(body.job, endpoint) ??
    new ApiError(`The document is not ready: its job is ${body.job.status}`, { endpoint, status: 200 })
  );
}

function feedbackPath(documentId: string): string {
  return `/v1/documents/${segment(documentId, 'document id')}/feedback`;
}

export interface SendFeedbackOptions extends CallOptions {
  /** The spec does not say whether PUT replaces and PATCH merges; the caller chooses. */
  method: 'PUT' | 'PATCH';
}

/**
 * Send the validated values of the fields the caller uses. Checked strictly first. The hosted service
 * no longer enables feedback for new accounts: a 403 (ProblemDetailsError or V1ApiError) is a normal
 * answer the UI must explain (API-FACTS v1).
 */
export async function sendFeedback(
  documentId: string,
  feedback: V1Feedback,
  { method, signal, client = api }: SendFeedbackOptions,
): Promise<V1FeedbackResponse> {
  const path = feedbackPath(documentId);
  const checked = check(V1FeedbackRequest, { feedback });
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint: `${method} ${path}` });
  return client.request({ method, path, body: { json: checked.data }, schema: V1FeedbackResponse, signal });
}

/** The feedback stored for a document (an extension of our reference service). */
export function getFeedback(
  documentId: string,
  { signal, client = api }: CallOptions = {},
): Promise<V1FeedbackResponse> {
  return client.request({
    method: 'GET',
    path: feedbackPath(documentId),
    schema: V1FeedbackResponse,
    signal,
  });
}
