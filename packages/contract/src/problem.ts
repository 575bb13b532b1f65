/**
 * Problem details (RFC 9457) in the shape of the hosted service's v2 ErrorResponse:
 * `{ status, title, detail, code, errors: [{ pointer, detail }] }`.
 *
 * Every 4xx/5xx our servers produce (the app server and the reference service's v2 routes) goes
 * through `ProblemError` and one renderer, with a `code` from `problemCatalog`. Codes follow the
 * hosted service's pattern (`<status>-<nnn>`, for example `422-001`, `401-001`); the two 401 codes
 * and `422-001` are the hosted service's own (see the fixtures' `v2/errors/` and `v2/job/fail_422.json`).
 * docs/errors.md lists the catalogue for integrators; a test keeps the two in step. Pure TypeScript
 * (no framework): the servers' Hono handlers are in problem-response.ts.
 */
export const problemCatalog = {
  '400-001': { status: 400, title: 'Malformed request' },
  '400-002': { status: 400, title: 'Invalid document input' },
  '400-003': { status: 400, title: 'Invalid feedback' },
  '401-001': { status: 401, title: 'Invalid API key' },
  '401-008': { status: 401, title: 'Missing credentials' },
  '401-009': { status: 401, title: 'Missing signature' },
  '401-010': { status: 401, title: 'Invalid signature' },
  '401-011': { status: 401, title: 'Not signed in' },
  '401-012': { status: 401, title: 'Wrong name or password' },
  '401-013': { status: 401, title: 'Invalid integration key' },
  '401-014': { status: 401, title: 'Metrics token required or wrong' },
  '401-015': { status: 401, title: 'Provider sign-in refused' },
  '401-016': { status: 401, title: 'No operator for this identity' },
  '401-017': { status: 401, title: 'Provider sign-in expired' },
  '403-001': { status: 403, title: 'Mode not supported' },
  '403-002': { status: 403, title: 'Feedback not enabled' },
  '403-003': { status: 403, title: 'Cross-site request refused' },
  '403-004': { status: 403, title: 'Missing or wrong CSRF token' },
  '403-005': { status: 403, title: 'Admins only' },
  '403-006': { status: 403, title: 'Held by another operator' },
  '403-007': { status: 403, title: 'Operator deactivated' },
  '403-008': { status: 403, title: 'Password sign-in turned off' },
  '404-001': { status: 404, title: 'Job not found' },
  '404-002': { status: 404, title: 'Inference not found' },
  '404-003': { status: 404, title: 'Route not found' },
  '404-004': { status: 404, title: 'Model not found' },
  '404-005': { status: 404, title: 'Webhook not found' },
  '404-006': { status: 404, title: 'Document not found' },
  '404-007': { status: 404, title: 'Webhooks not configured' },
  '404-008': { status: 404, title: 'Product not found' },
  '404-009': { status: 404, title: 'Prediction not found' },
  '404-010': { status: 404, title: 'Review document not found' },
  '404-011': { status: 404, title: 'Set-up link not valid' },
  '404-012': { status: 404, title: 'Operator not found' },
  '404-013': { status: 404, title: 'Not reviewed yet' },
  '404-014': { status: 404, title: 'Delivery not found' },
  '404-015': { status: 404, title: 'No such page or route' },
  '404-016': { status: 404, title: 'No document of this job' },
  '404-018': { status: 404, title: 'Saved queue not found' },
  '404-019': { status: 404, title: 'Nothing to export' },
  '404-020': { status: 404, title: 'Password link not valid' },
  '405-001': { status: 405, title: 'Method not allowed' },
  '408-001': { status: 408, title: 'Request timeout' },
  '409-001': { status: 409, title: 'Changed since you read it' },
  '409-002': { status: 409, title: 'Not in a state for this' },
  '409-003': { status: 409, title: 'Name already taken' },
  '409-004': { status: 409, title: 'Already delivered' },
  '409-006': { status: 409, title: 'Saved queue changed since you read it' },
  '409-008': { status: 409, title: 'Last admin' },
  '413-001': { status: 413, title: 'Payload too large' },
  '415-001': { status: 415, title: 'Unsupported media type' },
  '421-001': { status: 421, title: 'Host not allowed' },
  '422-001': { status: 422, title: 'Invalid fields in form' },
  '422-002': { status: 422, title: 'Unsupported file type' },
  '422-003': { status: 422, title: 'Unreadable document' },
  '422-004': { status: 422, title: 'Invalid identifier' },
  '422-005': { status: 422, title: 'File not retrievable' },
  '422-006': { status: 422, title: 'Invalid webhook URL' },
  '422-007': { status: 422, title: 'Unknown webhook payload' },
  '422-008': { status: 422, title: 'Invalid request body' },
  '422-009': { status: 422, title: 'Business rules fail' },
  '422-010': { status: 422, title: 'Request body nested too deep' },
  '422-011': { status: 422, title: 'File content does not match its type' },
  '422-012': { status: 422, title: 'Document too large to process' },
  '422-013': { status: 422, title: 'Postponed to a past date' },
  '422-014': { status: 422, title: 'Values not checked' },
  '422-015': { status: 422, title: 'Unknown field path' },
  '422-016': { status: 422, title: 'Operator cannot be assigned' },
  '422-017': { status: 422, title: 'Too many saved queues' },
  '429-001': { status: 429, title: 'Too many requests' },
  '429-002': { status: 429, title: 'Too many password link attempts' },
  '429-003': { status: 429, title: 'Too many failed sign-ins' },
  '429-004': { status: 429, title: 'Integration rate limit reached' },
  '431-001': { status: 431, title: 'Request headers too large' },
  '500-001': { status: 500, title: 'Internal error' },
  '500-002': { status: 500, title: 'Processing failed' },
  '500-003': { status: 500, title: 'Processing timed out' },
  '500-004': { status: 500, title: 'Processing interrupted' },
  '500-005': { status: 500, title: 'Kept file missing' },
  '502-001': { status: 502, title: 'Upstream unreachable' },
  '502-002': { status: 502, title: 'Upstream not configured' },
  '502-003': { status: 502, title: 'Webhook delivery failed' },
  '502-004': { status: 502, title: 'Identity provider unreachable' },
  '503-001': { status: 503, title: 'Review store unavailable' },
  '503-002': { status: 503, title: 'Not ready' },
  '504-001': { status: 504, title: 'Upstream timed out' },
  '504-002': { status: 504, title: 'Webhook timed out' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof problemCatalog;

export interface ProblemItem {
  /** A JSON Pointer to the request property concerned (`#/model_id`), or null. */
  pointer: string | null;
  detail: string;
}

export interface ProblemBody {
  status: number;
  title: string;
  detail: string;
  code: ProblemCode;
  errors: ProblemItem[];
  /**
   * The request's id (its `X-Request-Id` answer header), added by the app server's request log
   * (packages/server-kit/src/request-log.ts) to every problem it answers: the key to its log lines.
   */
  request_id?: string;
}

export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  readonly errors: ProblemItem[];
  /** Extra response headers, for example `Retry-After` on a 429. */
  readonly headers: Record<string, string>;
  /** Extension members of the body (RFC 9457 §3.2), e.g. a 409's `current` state. */
  readonly extensions: Record<string, unknown>;

  constructor(
    code: ProblemCode,
    detail: string,
    options: {
      errors?: ProblemItem[];
      headers?: Record<string, string>;
      title?: string;
      cause?: unknown;
      extensions?: Record<string, unknown>;
    } = {},
  ) {
    super(detail, { cause: options.cause });
    this.name = 'ProblemError';
    this.code = code;
    this.status = problemCatalog[code].status;
    this.title = options.title ?? problemCatalog[code].title;
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }

  toBody(): ProblemBody {
    return {
      ...this.extensions,
      status: this.status,
      title: this.title,
      detail: this.message,
      code: this.code,
      errors: this.errors,
    };
  }
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemResponse(problem: ProblemError): Response {
  return new Response(JSON.stringify(problem.toBody()), {
    status: problem.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...problem.headers },
  });
}
