/**
 * Any failure the operator can meet, in words: a title, the server's detail, its code, the pointers
 * into the request, and what to do next.
 */
import {
  ApiError,
  ForeignUrlError,
  InvalidRequestError,
  NetworkError,
  ProblemDetailsError,
  SchemaMismatchError,
  V1ApiError,
  V1JobFailedError,
} from '../api/errors';

export interface ErrorDescription {
  title: string;
  detail: string | null;
  code: string | null;
  pointers: { pointer: string | null; detail: string }[];
  hint: string;
  /** Whether trying the same request again may succeed (a network failure, a 429, a 5xx, a 401 once fixed). */
  retryable: boolean;
}

/** Statuses that the same request will meet again: the request or the resource must change. */
const FINAL_STATUSES = new Set([400, 404, 405, 409, 410, 413, 415, 422]);

const retryableStatus = (status: number | undefined) => status === undefined || !FINAL_STATUSES.has(status);

const hintByStatus: Record<number, string> = {
  400: 'The request was malformed; check the document and try again.',
  401: 'The service refused the app server’s API key: whoever runs the app server must check its key (UPSTREAM_V2_API_KEY), then try again.',
  402: 'This feature is not part of the account’s plan.',
  403: 'The account is not allowed to do this (a plan or permission limit).',
  404: 'It no longer exists, or never did. A result deleted after being fetched cannot be fetched again.',
  413: 'The file is too large; send a smaller one.',
  422: 'Correct what is pointed out above, then send it again.',
  429: 'The service is limiting how many requests it takes: wait a minute, then try again.',
  502: 'The extraction service could not be reached; try again in a moment.',
  504: 'The extraction service did not answer in time; try again in a moment.',
};

function hintFor(status: number | undefined, retryAfterSeconds?: number): string {
  if (status === 429 && retryAfterSeconds != null) {
    return `The service is limiting how many requests it takes: try again in ${retryAfterSeconds} s.`;
  }
  if (status != null && hintByStatus[status]) return hintByStatus[status];
  if (status != null && status >= 500) return 'The service failed; try again in a moment.';
  return 'Try again; if it keeps failing, check the app server’s log.';
}

/** A problem-details body as found in `job.error` (not an exception). */
interface ProblemLike {
  title?: unknown;
  detail?: unknown;
  code?: unknown;
  status?: unknown;
  errors?: unknown;
}

function fromProblemBody(p: ProblemLike): ErrorDescription {
  const status = typeof p.status === 'number' ? p.status : undefined;
  const pointers = Array.isArray(p.errors)
    ? p.errors.flatMap((e: unknown) =>
        e && typeof e === 'object' && 'detail' in e && typeof e.detail === 'string'
          ? [
              {
                pointer: 'pointer' in e && typeof e.pointer === 'string' ? e.pointer : null,
                detail: e.detail,
              },
            ]
          : [],
      )
    : [];
  return {
    title: typeof p.title === 'string' && p.title ? p.title : 'Something went wrong',
    detail: typeof p.detail === 'string' && p.detail ? p.detail : null,
    code: typeof p.code === 'string' && p.code ? p.code : null,
    pointers,
    hint: hintFor(status),
    retryable: retryableStatus(status),
  };
}

export function describeError(error: unknown): ErrorDescription {
  if (error instanceof ProblemDetailsError) {
    return { ...fromProblemBody(error), hint: hintFor(error.status, error.retryAfterSeconds) };
  }
  if (error instanceof NetworkError) {
    return {
      title: error.timedOut ? 'No answer in time' : 'The app server cannot be reached',
      detail: error.message,
      code: null,
      pointers: [],
      hint: 'Check the network connection and that the app server is running, then try again.',
      retryable: true,
    };
  }
  if (error instanceof SchemaMismatchError) {
    return {
      title: 'Unexpected answer from the service',
      detail: `The answer from ${error.endpoint} does not match the API’s schema, so it is not shown.`,
      code: null,
      pointers: error.issues.map((i) => ({ pointer: i.path, detail: i.message })),
      hint: 'This is a bug or an API change, not something you did: report it with these details.',
      retryable: false,
    };
  }
  if (error instanceof InvalidRequestError) {
    return {
      title: 'Not sent: the request is not valid',
      detail: null,
      code: null,
      pointers: error.issues.map((i) => ({ pointer: i.pointer, detail: i.message })),
      hint: 'Correct what is pointed out above, then send it again.',
      retryable: false,
    };
  }
  if (error instanceof V1ApiError || error instanceof V1JobFailedError) {
    return {
      title: error.apiMessage ?? 'The service refused the request',
      detail: typeof error.details === 'string' ? error.details : error.message,
      code: error.code ?? null,
      pointers: [],
      hint: hintFor(error.status),
      retryable: retryableStatus(error.status),
    };
  }
  if (error instanceof ForeignUrlError) {
    return {
      title: 'Address refused',
      detail: error.message,
      code: null,
      pointers: [],
      hint: 'The service answered with an address outside this app; check the app server’s configuration.',
      retryable: false,
    };
  }
  if (error instanceof ApiError) {
    return {
      title: error.status ? `The request failed (HTTP ${error.status})` : 'The request failed',
      detail: error.text ?? error.message,
      code: null,
      pointers: [],
      hint: hintFor(error.status, error.retryAfterSeconds),
      retryable: retryableStatus(error.status),
    };
  }
  if (error && typeof error === 'object' && ('title' in error || 'detail' in error)) {
    return fromProblemBody(error as ProblemLike);
  }
  return {
    title: 'Something went wrong',
    detail: error instanceof Error ? error.message : String(error),
    code: null,
    pointers: [],
    hint: 'Reload the page; your corrections are kept in this browser.',
    retryable: true,
  };
}
