/**
 * The app server's one way to call an upstream (the hosted API or the reference service) on its own
 * account: the job follower's polls, the gateway's RAG additions, the way back's feedback and RAG
 * deliveries. The proxy's pass-through of the browser's requests streams through the same transport
 * (send-upstream.ts) with the same key.
 *
 * - The upstream's base URL and key are added here, and only here (never in the browser): a call
 *   names a path (`/v2/jobs/…`), the client joins it to the base (keeping the base's own path prefix)
 *   and sets `Authorization` as the API version expects it.
 * - Each call has a time-out (UPSTREAM_TIMEOUT_MS unless the call says otherwise) and takes an abort
 *   signal.
 * - What it reads is checked by the contract's zod schemas (v2-upstream.ts, v1-upstream.ts): a body
 *   of another shape is an `UpstreamSchemaMismatch`, not a guess.
 * - Failures become our problem details as the proxy words them (`problemFor`): 504-001 for a
 *   time-out, 502-001 for an upstream that cannot be reached or breaks off.
 */
import type { AttemptOutcome } from '@extraction-review/server-kit/retry-policy';
import { ProblemError } from '@extraction-review/contract/problem';
import { deliverOnce } from './deliver-once';
import { exchange, UpstreamFailure, type ExchangeReply } from './exchange';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';

export interface Upstream {
  /** Base URL of the service, without the version segment (`https://api-v2.mindee.net`). */
  url: string;
  apiKey: string;
  /**
   * Who this upstream is, recorded with each document it takes (`documents.upstream_id`), when its
   * URL does not say it for good: the embedded reference service listens where it is told, a random
   * port in tests (REFERENCE_PORT=0), but it is the same service, with the same jobs, at every start.
   */
  identity?: string | undefined;
}

/** UPSTREAM_TIMEOUT_MS's default (server/app/settings/config.ts). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;
/** An answer read whole: a result's pages of fields and text, not more. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** `Authorization` as each API version expects it (spec §5, API-FACTS). */
export function authorizationFor(version: ApiVersion, apiKey: string): string {
  return version === 'v1' ? `Token ${apiKey}` : apiKey;
}

export interface CallInit {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Added to `Authorization` and `Accept: application/json`. */
  headers?: Record<string, string>;
  body?: Buffer | string;
  signal?: AbortSignal;
  /** Default: the client's (UPSTREAM_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Default 32 MiB. */
  maxAnswerBytes?: number;
}

export interface UpstreamReply extends ExchangeReply {
  /** The body as UTF-8 text. */
  text(): string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  json(): unknown;
}

/** A body the contract's schema refused: the upstream answered, but not with what it should. */
export class UpstreamSchemaMismatch extends Error {
  override readonly name = 'UpstreamSchemaMismatch';
}

/** An answer with a status the call cannot use (a 5xx, a proxy's page, a 422 for an odd id). */
export class UpstreamStatusError extends Error {
  override readonly name = 'UpstreamStatusError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class UpstreamClient {
  readonly origin: string;
  private readonly base: string;

  constructor(
    readonly version: ApiVersion,
    readonly upstream: Upstream,
    private readonly timeoutMs: number = DEFAULT_UPSTREAM_TIMEOUT_MS,
  ) {
    this.base = upstream.url.replace(/\/+$/, '');
    this.origin = new URL(this.base).origin;
  }

  /** `<base><path>`: the base URL's own path prefix kept (`http://host/prefix` + `/v2/jobs/1`). */
  url(path: string): URL {
    return new URL(`${this.base}${path.startsWith('/') ? path : `/${path}`}`);
  }

  /** The header that carries the server's key (the proxy sets it on what it passes through). */
  authorization(): string {
    return authorizationFor(this.version, this.upstream.apiKey);
  }

  /** One call, its answer read whole; throws `UpstreamFailure` when there is no whole answer. */
  async call(path: string, init: CallInit = {}): Promise<UpstreamReply> {
    const reply = await exchange(this.url(path), {
      method: init.method ?? 'GET',
      headers: { Accept: 'application/json', ...init.headers, Authorization: this.authorization() },
      body: init.body,
      signal: init.signal,
      timeoutMs: init.timeoutMs ?? this.timeoutMs,
      maxAnswerBytes: init.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    });
    return {
      ...reply,
      text: () => reply.body.toString('utf8'),
      json: () => parseJson(reply.body.toString('utf8')),
    };
  }

  /**
   * One attempt of a way-back delivery (feedback, a RAG document) to this upstream, with the server's
   * key: deliver-once.ts's rules (a fresh connection, no redirect, the time-out up to the status line).
   */
  deliver(
    path: string,
    body: Buffer,
    init: {
      method: 'POST' | 'PUT' | 'PATCH';
      headers: Record<string, string>;
      timeoutMs: number;
      signal: AbortSignal;
    },
  ): Promise<AttemptOutcome> {
    return deliverOnce(this.url(path), body, {
      ...init,
      headers: { ...init.headers, Authorization: this.authorization() },
    });
  }

  /** Our problem details for a failed call, worded as the proxy words its own. */
  problemFor(error: unknown): ProblemError {
    const upstream = `The ${this.version} upstream at ${this.origin}`;
    if (error instanceof UpstreamFailure) {
      switch (error.kind) {
        case 'timeout':
          return new ProblemError('504-001', `${upstream} timed out.`, { cause: error });
        case 'too-large':
          return new ProblemError('502-001', `${upstream} sent an answer too large to pass on.`, {
            cause: error,
          });
        case 'aborted':
          return new ProblemError('502-001', 'The request was cancelled before the upstream answered.', {
            cause: error,
          });
        case 'network': {
          const code = error.code === undefined ? '' : ` (${error.code})`;
          return new ProblemError(
            '502-001',
            error.phase === 'request'
              ? `Could not reach the ${this.version} upstream at ${this.origin}${code}.`
              : `${upstream} broke off its answer${code}.`,
            { cause: error },
          );
        }
      }
    }
    if (error instanceof UpstreamSchemaMismatch || error instanceof UpstreamStatusError) {
      return new ProblemError('502-001', `${upstream} answered unexpectedly: ${error.message}`, {
        cause: error,
      });
    }
    return new ProblemError('502-001', `Could not reach the ${this.version} upstream at ${this.origin}.`, {
      cause: error,
    });
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
