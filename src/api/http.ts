/**
 * The one doorway to HTTP (STYLE.md "One HTTP doorway with typed errors"): base path, AbortSignal, retries
 * (retry.ts), JSON, error bodies → typed errors (errors.ts), and every result checked with the endpoint's
 * zod schema before a caller sees it.
 *
 * Everything goes to our own origin under `/api` (the app server adds the API key and rewrites the
 * service's URLs into `/api/...`). A URL taken from a response is followed only if it stays under that
 * base: the browser must never be made to send requests to another origin.
 *
 * Runs in the browser and in Node 20 (tests, the server): fetch, FormData, Blob, AbortSignal only.
 */
import ky, {
  HTTPError,
  TimeoutError,
  type Options as KyOptions,
  type RetryOptions as KyRetryOptions,
} from 'ky';
import { z } from 'zod';
import {
  ApiError,
  ForeignUrlError,
  NetworkError,
  ProblemDetailsError,
  SchemaMismatchError,
  V1ApiError,
} from './errors';
import { check } from '@extraction-review/contract/issues';
import { csrfHeaders } from '@extraction-review/contract/review/csrf';
import {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  isRetryableNetworkFailure,
  isRetryableStatus,
  parseRetryAfter,
  type HttpMethod,
  type RetryPolicy,
} from './retry';

export type { HttpMethod, RetryPolicy } from './retry';

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions<S extends z.ZodType> {
  method: HttpMethod;
  /** A path under the base, starting with `/`: `/v2/jobs/abc`. Exactly one of `path` and `url`. */
  path?: string;
  /** A URL a response gave us (`polling_url`, `result_url`), already rewritten to `/api/...`. */
  url?: string;
  query?: Record<string, QueryValue>;
  /** Multipart form, or a value sent as JSON. */
  body?: { form: FormData } | { json: unknown };
  /** Checks the response body; its output is what the call returns. */
  schema: S;
  signal?: AbortSignal | undefined;
  /** Extra request headers (the review API's `X-CSRF-Token`). */
  headers?: Record<string, string> | undefined;
}

export interface ApiClient {
  /** The base as given (`/api`, or `http://127.0.0.1:8080/api`). */
  readonly baseUrl: string;
  request<S extends z.ZodType>(options: RequestOptions<S>): Promise<z.output<S>>;
  /** The absolute URL a path or a server-given URL resolves to; throws ForeignUrlError outside the base. */
  resolve(target: { path: string } | { url: string }): URL;
}

export interface ApiClientOptions {
  /** `/api` by default (same origin, browser). Node callers pass an absolute URL: `http://127.0.0.1:8080/api`. */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  /** Told of each wait before a retry (besides the listeners of `onRetryWait`). */
  onRetryWait?: RetryWaitListener;
  /**
   * Per-attempt limit for GET requests, in ms. Uploads and other writes have none (a 100 MB file on a slow
   * link takes a while): cancel them with the AbortSignal.
   */
  readTimeoutMs?: number;
}

export const ACCEPT = 'application/json, application/problem+json;q=0.9, */*;q=0.1';

/**
 * A call that failed and will be tried again after `waitMs`: a 429 or 503 waiting out its `Retry-After`,
 * or a backoff. The UI shows it ("rate limited, retrying in 3 s") rather than a call that merely hangs.
 */
export interface RetryWait {
  /** `GET /api/v2/jobs/…`. */
  endpoint: string;
  /** The status that caused the retry; undefined after a failure without a response. */
  status: number | undefined;
  /** How long before the next attempt, in ms; undefined when the backoff decides (no Retry-After). */
  waitMs: number | undefined;
  /** 1 for the first retry. */
  retry: number;
  /** `Date.now()` when the wait began. */
  at: number;
}

export type RetryWaitListener = (wait: RetryWait) => void;

const retryWaitListeners = new Set<RetryWaitListener>();

/** Every retry wait of every client, for a status line; returns the unsubscribe function. */
export function onRetryWait(listener: RetryWaitListener): () => void {
  retryWaitListeners.add(listener);
  return () => retryWaitListeners.delete(listener);
}

/** Tells the client's own listener and the global ones; a failing listener never fails a call. */
export function notifyRetryWait(wait: RetryWait, own?: RetryWaitListener): void {
  for (const listener of own ? [own, ...retryWaitListeners] : retryWaitListeners) {
    try {
      listener(wait);
    } catch (error) {
      console.error('A retry-wait listener failed', error);
    }
  }
}
const EXCERPT_LENGTH = 200;

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = options.baseUrl ?? '/api';
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const readTimeoutMs = options.readTimeoutMs ?? 30_000;

  // Resolved on first use: in the browser a relative base needs `location`, which a Node import lacks.
  let base: URL | undefined;
  const getBase = (): URL => {
    if (base) return base;
    const origin = (globalThis as { location?: { href: string } }).location?.href;
    if (!/^https?:\/\//i.test(baseUrl) && origin === undefined)
      throw new Error(`The API base "${baseUrl}" is relative: outside a browser, pass an absolute baseUrl.`);
    const resolved = new URL(baseUrl, origin);
    resolved.pathname = resolved.pathname.replace(/\/+$/, '');
    resolved.search = '';
    resolved.hash = '';
    base = resolved;
    return resolved;
  };

  const isUnderBase = (url: URL): boolean => {
    const b = getBase();
    return (
      url.origin === b.origin &&
      url.username === '' &&
      url.password === '' &&
      (url.pathname === b.pathname || url.pathname.startsWith(`${b.pathname}/`))
    );
  };

  const resolve = (target: { path: string } | { url: string }): URL => {
    const b = getBase();
    let url: URL;
    if ('path' in target) {
      if (!target.path.startsWith('/')) throw new Error(`API paths start with "/": ${target.path}`);
      url = new URL(`${b.pathname}${target.path}`, b.origin);
    } else {
      // Only an absolute path (`/api/...`) or an absolute http(s) URL; `//host/...` and relative forms are
      // resolved too, and then refused by the origin and base checks below.
      if (!/^(\/|https?:\/\/)/i.test(target.url)) throw new ForeignUrlError(target.url, b.href);
      url = new URL(target.url, b);
    }
    if (!isUnderBase(url)) throw new ForeignUrlError('url' in target ? target.url : url.href, b.href);
    return url;
  };

  async function request<S extends z.ZodType>(req: RequestOptions<S>): Promise<z.output<S>> {
    if ((req.path === undefined) === (req.url === undefined))
      throw new Error('Give exactly one of `path` and `url`.');
    const url = req.path !== undefined ? resolve({ path: req.path }) : resolve({ url: req.url ?? '' });
    for (const [key, value] of Object.entries(req.query ?? {}))
      if (value !== undefined) url.searchParams.set(key, String(value));
    const endpoint = `${req.method} ${url.pathname}`;
    const { signal } = req;

    const kyOptions: KyOptions = {
      method: req.method,
      // A signed-in session's CSRF token goes with every change (the app server refuses one without).
      headers: { ...(req.method === 'GET' ? {} : csrfHeaders()), ...req.headers, accept: ACCEPT },
      signal,
      timeout: req.method === 'GET' ? readTimeoutMs : false,
      throwHttpErrors: true,
      retry: retryOptions(req.method, policy, signal, (wait) =>
        notifyRetryWait({ ...wait, endpoint }, options.onRetryWait),
      ),
    };
    if (req.body && 'form' in req.body) kyOptions.body = req.body.form;
    else if (req.body) kyOptions.json = req.body.json;

    let response: Response;
    try {
      response = await ky(url, kyOptions);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof HTTPError) throw await errorFromResponse(error.response, endpoint, signal);
      if (error instanceof TimeoutError) throw new NetworkError({ endpoint, timedOut: true, cause: error });
      throw new NetworkError({ endpoint, cause: error });
    }

    // A redirect the browser followed (v1 queue → document) must not have left our base either.
    if (response.redirected && !isUnderBase(new URL(response.url)))
      throw new ForeignUrlError(response.url, getBase().href, { status: response.status });

    return parseSuccess(response, req.schema, endpoint, signal);
  }

  return { baseUrl, request, resolve };
}

/** The default client for the browser: same origin, `/api`. */
export const api: ApiClient = createApiClient();

/** ky's retry options carrying the rules of retry.ts for one call. */
function retryOptions(
  method: HttpMethod,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  onWait: (wait: Omit<RetryWait, 'endpoint'>) => void,
): KyRetryOptions {
  return {
    limit: policy.limit,
    // Every method we use; which failures each may retry is decided in shouldRetry.
    methods: ['get', 'put', 'post', 'patch'],
    statusCodes: [408, 429, 500, 502, 503, 504],
    afterStatusCodes: [429, 503],
    maxRetryAfter: policy.maxRetryAfterMs,
    backoffLimit: policy.maxDelayMs,
    delay: (retry) => backoffDelay(retry, policy),
    retryOnTimeout: true,
    // `undefined` lets ky wait for Retry-After (or the backoff when there is none); `true` would skip
    // Retry-After, so it is returned only for failures without a response.
    shouldRetry: ({ error, retryCount }) => {
      if (signal?.aborted) return false;
      if (error instanceof HTTPError) {
        const status = error.response.status;
        if (!isRetryableStatus(method, status)) return false;
        const wait = parseRetryAfter(error.response.headers.get('retry-after'));
        if (wait !== undefined && wait > policy.maxRetryAfterMs) return false;
        // ky waits for Retry-After only on these statuses; others take the backoff.
        const waitMs = status === 429 || status === 503 ? wait : undefined;
        onWait({ status, waitMs, retry: retryCount, at: Date.now() });
        return undefined;
      }
      if (!isRetryableNetworkFailure(method)) return false;
      onWait({ status: undefined, waitMs: undefined, retry: retryCount, at: Date.now() });
      return true;
    },
  };
}

/**
 * A 2xx/3xx body: JSON, not a v1 error in disguise, and matching the endpoint's schema. Exported for the
 * upload call (v2/upload.ts), which gets its response from XMLHttpRequest rather than ky.
 */
export async function parseSuccess<S extends z.ZodType>(
  response: Response,
  schema: S,
  endpoint: string,
  signal: AbortSignal | undefined,
): Promise<z.output<S>> {
  const text = await readText(response, signal);
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(`Expected JSON from ${endpoint}, received ${contentType(response) || 'no type'}`, {
      endpoint,
      status: response.status,
      text: excerpt(text),
    });
  }
  const v1Error = v1ErrorInBody(body, response.status, endpoint);
  if (v1Error) throw v1Error;

  const checked = check(schema, body);
  if (!checked.success) throw new SchemaMismatchError(checked.issues, { endpoint, status: response.status });
  return checked.data;
}

async function readText(response: Response, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw error;
  }
}

function contentType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A short plain-text excerpt of a body: tags, scripts and styles removed, whitespace collapsed. */
export function excerpt(text: string, length = EXCERPT_LENGTH): string {
  const plain = text
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > length ? `${plain.slice(0, length - 1)}…` : plain;
}

// Error bodies are read leniently: a partial problem is still more useful than a generic message.
const ProblemBody = z.object({
  title: z.string().optional(),
  detail: z.string().optional(),
  code: z.union([z.string(), z.number()]).optional(),
  errors: z
    .array(z.object({ pointer: z.string().nullable().catch(null), detail: z.string().catch('') }))
    .optional()
    .catch(undefined),
});

const V1ErrorObject = z.object({
  code: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  details: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .optional()
    .catch(undefined),
});

const V1Envelope = z.object({
  api_request: z.object({
    error: V1ErrorObject.catch({}),
    status_code: z.int().optional().catch(undefined),
  }),
});

/**
 * v1 bodies say what happened in `api_request` even on a 2xx ("clients pick the error kind from
 * api_request.status_code", API-FACTS v1), so a 2xx whose status_code is 4xx/5xx is an error too.
 */
function v1ErrorInBody(body: unknown, status: number, endpoint: string): V1ApiError | undefined {
  const envelope = V1Envelope.safeParse(body);
  if (!envelope.success) return undefined;
  const statusCode = envelope.data.api_request.status_code;
  if (statusCode === undefined || statusCode < 400) return undefined;
  return new V1ApiError({ ...envelope.data.api_request.error, statusCode }, { endpoint, status });
}

/** An error response as the typed error it stands for (errors.ts); exported for v2/upload.ts. */
export async function errorFromResponse(
  response: Response,
  endpoint: string,
  signal: AbortSignal | undefined,
): Promise<ApiError> {
  const status = response.status;
  const waitMs = parseRetryAfter(response.headers.get('retry-after'));
  const retryAfterSeconds = waitMs === undefined ? undefined : Math.ceil(waitMs / 1000);
  const common = { endpoint, status, retryAfterSeconds };
  const text = await readText(response, signal).catch((error: unknown) => {
    if (signal?.aborted) throw error;
    return '';
  });

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }

  const envelope = V1Envelope.safeParse(body);
  if (envelope.success) {
    const info = envelope.data.api_request.error;
    return new V1ApiError({ ...info, statusCode: envelope.data.api_request.status_code ?? status }, common);
  }

  const problem = ProblemBody.safeParse(body);
  if (problem.success && (problem.data.title !== undefined || problem.data.detail !== undefined)) {
    const p = problem.data;
    return new ProblemDetailsError(
      {
        status,
        title: p.title ?? (response.statusText || `Error ${status}`),
        detail: p.detail ?? '',
        code: p.code === undefined ? String(status) : String(p.code),
        errors: p.errors ?? [],
      },
      { endpoint, retryAfterSeconds },
    );
  }

  const short = excerpt(text);
  const reason = response.statusText ? `${status} ${response.statusText}` : String(status);
  return new ApiError(`Request failed with status ${reason}${short ? `: ${short}` : ''}`, {
    ...common,
    text: short || undefined,
  });
}

/**
 * One path segment from a value (an id, an account name): percent-encoded, and never empty, `.` or `..`,
 * which would change the path the server sees.
 */
export function segment(value: string | number, what = 'path segment'): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') throw new Error(`Invalid ${what}: "${text}"`);
  return encodeURIComponent(text);
}
