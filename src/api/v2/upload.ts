/**
 * Enqueueing a document with upload progress. `fetch` cannot report how much of a request body has been
 * sent (over HTTP/1.1 it has no upload progress at all), so this one call goes through XMLHttpRequest;
 * everything else about it is the HTTP doorway's (http.ts): the same strict input check, the same form
 * (endpoints.ts `toEnqueueForm`), the same error mapping (problem details → ProblemDetailsError, …), the
 * same schema check of the answer, and the same retry rule for a POST: only a 429, after its
 * `Retry-After` — the service refused before doing any work, so a retry cannot enqueue a second job
 * (retry.ts). A network failure or a 5xx is not repeated: the document may have been queued already.
 */
import type { z } from 'zod';
import { InvalidRequestError, NetworkError, type ApiError } from '../errors';
import { csrfHeaders } from '@extraction-review/contract/review/csrf';
import { ACCEPT, api, errorFromResponse, notifyRetryWait, parseSuccess, type ApiClient } from '../http';
import { check } from '@extraction-review/contract/issues';
import { DEFAULT_RETRY_POLICY, backoffDelay, parseRetryAfter } from '../retry';
import { ENQUEUE_PATH, toEnqueueForm } from './endpoints';
import { EnqueueExtractionInput, JobResponse } from '@extraction-review/contract/v2/schemas';

export interface UploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** The request body's size (the form, so a little more than the file). */
  total: number;
}

export interface UploadRetryWait {
  /** How long before the next attempt, in ms. */
  waitMs: number;
  /** 1 for the first retry. */
  retry: number;
  /** The 429 that caused it. */
  error: ApiError;
}

/** The raw answer of one attempt, as a transport gives it. */
export interface TransportResponse {
  status: number;
  statusText: string;
  headers: Headers;
  body: string;
}

export interface TransportRequest {
  url: string;
  form: FormData;
  signal: AbortSignal | undefined;
  onProgress: (progress: UploadProgress) => void;
}

/**
 * Sends one request. Resolves with any HTTP answer (errors included), rejects with a TypeError when
 * there is none (offline, reset), and with the signal's reason when cancelled.
 */
export type UploadTransport = (request: TransportRequest) => Promise<TransportResponse>;

export interface UploadOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: UploadProgress) => void) | undefined;
  /** Called before each wait for a retry, so the UI can say "rate limited, retrying in N s". */
  onRetryWait?: ((wait: UploadRetryWait) => void) | undefined;
  client?: ApiClient | undefined;
  transport?: UploadTransport | undefined;
  /** How many 429s to wait out before giving up; more than a GET gets, as nothing was created. */
  maxRetries?: number | undefined;
  /** The longest Retry-After waited for; a longer one fails at once with `retryAfterSeconds`. */
  maxRetryAfterMs?: number | undefined;
}

/** Eight 429s in a row: past the e2e and hosted windows (seconds to a minute) with a bounded queue. */
export const UPLOAD_MAX_RETRIES = 8;

/**
 * Queue a document for extraction, reporting upload progress. Like `enqueueExtraction` (endpoints.ts),
 * with `onProgress` and `onRetryWait`.
 */
export async function uploadExtraction(
  input: EnqueueExtractionInput,
  options: UploadOptions = {},
): Promise<JobResponse> {
  const checked = check(EnqueueExtractionInput, input);
  if (!checked.success) throw new InvalidRequestError(checked.issues, { endpoint: `POST ${ENQUEUE_PATH}` });
  return uploadForm(
    { path: ENQUEUE_PATH, makeForm: () => toEnqueueForm(checked.data), schema: JobResponse },
    options,
  );
}

export interface FormUpload<S extends z.ZodType> {
  /** Under the API base, as http.ts takes paths. */
  path: string;
  /** The body, already checked by the caller; built again for each attempt. */
  makeForm: () => FormData;
  /** The success answer's schema. */
  schema: S;
}

/**
 * POST a multipart form with upload progress and the 429 waits described above; shared by v2 enqueue
 * and v1 predict / predict_async (v1/upload.ts), whose only differences are the path, form and answer.
 */
export async function uploadForm<S extends z.ZodType>(
  { path, makeForm, schema }: FormUpload<S>,
  {
    signal,
    onProgress,
    onRetryWait,
    client = api,
    transport = xhrTransport,
    maxRetries = UPLOAD_MAX_RETRIES,
    maxRetryAfterMs = DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  }: UploadOptions = {},
): Promise<z.output<S>> {
  const url = client.resolve({ path }).href;
  const fullEndpoint = `POST ${new URL(url).pathname}`;

  for (let retry = 1; ; retry++) {
    signal?.throwIfAborted();
    // A new form each time: a FormData can be sent again, but a fresh one costs nothing.
    const form = makeForm();
    let answer: TransportResponse;
    try {
      answer = await transport({ url, form, signal, onProgress: (p) => onProgress?.(p) });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new NetworkError({ endpoint: fullEndpoint, cause: error });
    }
    const response = toResponse(answer);
    if (response.ok) return parseSuccess(response, schema, fullEndpoint, signal);

    const error = await errorFromResponse(response, fullEndpoint, signal);
    const after = parseRetryAfter(answer.headers.get('retry-after'));
    if (answer.status !== 429 || retry > maxRetries) throw error;
    if (after !== undefined && after > maxRetryAfterMs) throw error;
    const waitMs = after ?? backoffDelay(retry, DEFAULT_RETRY_POLICY);
    onRetryWait?.({ waitMs, retry, error });
    notifyRetryWait({ endpoint: fullEndpoint, status: 429, waitMs, retry, at: Date.now() });
    await sleep(waitMs, signal);
  }
}

/** The transport's answer as a fetch `Response`, so http.ts reads it exactly as it reads ky's. */
function toResponse(answer: TransportResponse): Response {
  // A Response cannot carry a body with these statuses; none of them has one worth reading.
  const bodyless = answer.status === 204 || answer.status === 205 || answer.status === 304;
  return new Response(bodyless ? null : answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `Name: value` lines of `getAllResponseHeaders()` as Headers. */
export function parseHeaderLines(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header name the Headers class refuses: nothing we read.
    }
  }
  return headers;
}

/** The browser transport: XMLHttpRequest, the one API that reports upload progress. */
export const xhrTransport: UploadTransport = ({ url, form, signal, onProgress }) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', ACCEPT);
    // The signed-in session's token: the app server refuses a change without it.
    for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
    xhr.responseType = 'text';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      done();
      resolve({
        status: xhr.status,
        statusText: xhr.statusText,
        headers: parseHeaderLines(xhr.getAllResponseHeaders()),
        body: typeof xhr.response === 'string' ? xhr.response : '',
      });
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new TypeError('Network request failed'));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(signal?.reason ?? new DOMException('The upload was cancelled', 'AbortError'));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(form);
  });
