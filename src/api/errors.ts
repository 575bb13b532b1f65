/**
 * What can go wrong in a call, as classes the UI can tell apart with `instanceof`.
 *
 *   ApiError                   any failed call; also a non-JSON or unrecognised error body (an nginx
 *   │                          HTML 502 page, v1/errors/error_50x.html) with its status and a short text
 *   ├─ ProblemDetailsError     v2 and our own servers: RFC 9457 `{ status, title, detail, code, errors[] }`
 *   ├─ V1ApiError              v1: `api_request.error` `{ code, message, details }` and `status_code`
 *   ├─ V1JobFailedError        v1: a job that ended `failed`, with its `job.error`
 *   ├─ SchemaMismatchError     a response that does not match the endpoint's schema, with the JSON paths
 *   ├─ NetworkError            no response at all (offline, DNS, connection reset, time-out)
 *   ├─ ForeignUrlError         a URL from a response that points outside our `/api/` base: not followed
 *   └─ InvalidRequestError     what we were about to send breaks the contract: nothing was sent
 *
 * A cancelled call is not an ApiError: the AbortSignal's reason is rethrown as is, as React Query expects.
 * UI reactions (toasts, redirects) do not belong here; see STYLE.md "One HTTP doorway with typed errors".
 */
import { describeIssues, type ValidationIssue } from '@extraction-review/contract/issues';
import type { V1Error } from '@extraction-review/contract/v1/schemas';
import type { ErrorItem, ErrorResponse } from '@extraction-review/contract/v2/schemas';

export interface ApiErrorOptions {
  /** `GET /api/v2/jobs/…`: which call failed. */
  endpoint: string;
  /** HTTP status of the final response, when there was one. */
  status?: number | undefined;
  /** From the final response's `Retry-After` (a 429, or a 503), in whole seconds from when it arrived. */
  retryAfterSeconds?: number | undefined;
  /** A short plain-text excerpt of a body that could not be interpreted. */
  text?: string | undefined;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  readonly endpoint: string;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly text: string | undefined;

  constructor(message: string, options: ApiErrorOptions) {
    super(message, { cause: options.cause });
    this.endpoint = options.endpoint;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.text = options.text;
  }

  /** 429: the service or our server asks us to slow down; `retryAfterSeconds` says for how long when known. */
  get isRateLimited(): boolean {
    return this.status === 429;
  }
}

export class ProblemDetailsError extends ApiError implements ErrorResponse {
  override readonly name: string = 'ProblemDetailsError';
  override readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** The service's code, shaped like `422-001` (API-FACTS "Errors"). */
  readonly code: string;
  /** Each problem in the request, with its JSON Pointer (`#/model_id`) when the service gives one. */
  readonly errors: ErrorItem[];

  constructor(problem: ErrorResponse, options: Omit<ApiErrorOptions, 'status'>) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title, {
      ...options,
      status: problem.status,
    });
    this.status = problem.status;
    this.title = problem.title;
    this.detail = problem.detail;
    this.code = problem.code;
    this.errors = problem.errors;
  }
}

/** v1 `api_request.error.details`: a sentence, or an object such as `{ document: ["error message"] }`. */
export type V1ErrorDetails = NonNullable<V1Error['details']>;

function v1Message(info: V1Error, fallback: string): string {
  const head = info.message ?? info.code ?? fallback;
  if (typeof info.details === 'string' && info.details !== '' && info.details !== head)
    return `${head}: ${info.details}`;
  if (info.details !== undefined && typeof info.details === 'object')
    return `${head}: ${JSON.stringify(info.details)}`;
  return head;
}

export class V1ApiError extends ApiError {
  override readonly name: string = 'V1ApiError';
  readonly code: string | undefined;
  /** `api_request.error.message` (the Error's own `message` combines it with the details). */
  readonly apiMessage: string | undefined;
  readonly details: V1ErrorDetails | undefined;
  /** `api_request.status_code`: what v1 clients pick the error kind from (API-FACTS v1). */
  readonly statusCode: number;

  constructor(info: V1Error & { statusCode: number }, options: ApiErrorOptions) {
    super(v1Message(info, `Request failed with status ${info.statusCode}`), options);
    this.code = info.code;
    this.apiMessage = info.message;
    this.details = info.details;
    this.statusCode = info.statusCode;
  }
}

export class V1JobFailedError extends ApiError {
  override readonly name: string = 'V1JobFailedError';
  readonly jobId: string;
  readonly code: string | undefined;
  readonly apiMessage: string | undefined;
  readonly details: V1ErrorDetails | undefined;

  constructor(jobId: string, info: V1Error, options: ApiErrorOptions) {
    super(v1Message(info, `Job ${jobId} failed`), options);
    this.jobId = jobId;
    this.code = info.code;
    this.apiMessage = info.message;
    this.details = info.details;
  }
}

export class SchemaMismatchError extends ApiError {
  override readonly name: string = 'SchemaMismatchError';
  /** Every mismatch, with its JSON path (`job.status`) and pointer (`#/job/status`). */
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[], options: ApiErrorOptions) {
    super(`Unexpected response from ${options.endpoint}: ${describeIssues(issues)}`, options);
    this.issues = issues;
  }
}

/** The input of a call failed its (strict) request schema; `issues` name the paths, as for a form. */
export class InvalidRequestError extends ApiError {
  override readonly name: string = 'InvalidRequestError';
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[], options: Pick<ApiErrorOptions, 'endpoint'>) {
    super(`Not sent to ${options.endpoint}: ${describeIssues(issues)}`, options);
    this.issues = issues;
  }
}

export class NetworkError extends ApiError {
  override readonly name: string = 'NetworkError';
  /** True when no response came within the time limit. */
  readonly timedOut: boolean;

  constructor(options: ApiErrorOptions & { timedOut?: boolean }) {
    super(
      options.timedOut
        ? `No response from ${options.endpoint} in time`
        : `Could not reach ${options.endpoint}`,
      options,
    );
    this.timedOut = options.timedOut ?? false;
  }
}

export class ForeignUrlError extends ApiError {
  override readonly name: string = 'ForeignUrlError';
  readonly url: string;

  constructor(url: string, base: string, options: Omit<ApiErrorOptions, 'endpoint'> = {}) {
    super(`Refusing to request ${url}: it is not under ${base}`, { ...options, endpoint: url });
    this.url = url;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * For the query client's `retry` option: failures that a later attempt may get past, once the HTTP layer
 * has done its own retries (retry.ts): no response or a time-out, 408, 5xx. Not a 429 (the HTTP layer
 * already waited as long as it is worth; `retryAfterSeconds` says how long is left), not another 4xx, a
 * schema mismatch, a failed job or a refused URL: repeating those cannot succeed.
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (
    error instanceof SchemaMismatchError ||
    error instanceof ForeignUrlError ||
    error instanceof V1JobFailedError ||
    error instanceof InvalidRequestError
  )
    return false;
  if (error instanceof ApiError && error.status !== undefined)
    return error.status === 408 || error.status >= 500;
  return false;
}
