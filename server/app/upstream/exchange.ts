/**
 * One request and its whole answer, read into memory: what the app server's own calls need (a job's
 * status, a result, a RAG document), as opposed to the proxy's pass-through, which streams
 * (send-upstream.ts, which this is built on, says why node:http and not fetch).
 *
 * - The time-out covers the whole exchange, from connecting to the answer's last byte, as
 *   `AbortSignal.timeout` did on the fetch these calls used before.
 * - The caller's signal (a follower stopping) cuts it short at any point.
 * - The answer is read up to `maxAnswerBytes`; a longer one is cut off, not buffered.
 * - Redirects are never followed: a 3xx is an answer like any other.
 * Every failure is an `UpstreamFailure` saying which of these it was.
 */
import type { Agent } from 'node:http';
import type { LookupFunction } from 'node:net';
import { sendUpstream } from './send-upstream';

export type UpstreamFailureKind =
  /** No whole answer within the time allowed. */
  | 'timeout'
  /** The caller's signal was aborted. */
  | 'aborted'
  /** The connection failed, or broke off during the answer. */
  | 'network'
  /** The answer was longer than the caller reads. */
  | 'too-large';

export class UpstreamFailure extends Error {
  override readonly name = 'UpstreamFailure';

  constructor(
    readonly kind: UpstreamFailureKind,
    /** Whether it failed before the answer began (`request`) or while its body was read (`answer`). */
    readonly phase: 'request' | 'answer',
    message: string,
    /** The system error code behind a network failure (`ECONNREFUSED`, `ECONNRESET` ...). */
    readonly code?: string | undefined,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  /** Written once, with its `Content-Length`. */
  body?: Buffer | string | undefined;
  /** Aborting it ends the exchange with an `aborted` failure. */
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  maxAnswerBytes: number;
  agent?: Agent | false | undefined;
  lookup?: LookupFunction | undefined;
}

export interface ExchangeReply {
  status: number;
  statusText: string;
  headers: Headers;
  /** The answer's body as received (content-encoding untouched: these calls ask for none). */
  body: Buffer;
}

class ExchangeTimeout extends Error {
  override readonly name = 'ExchangeTimeout';
}

export async function exchange(url: URL, init: ExchangeInit): Promise<ExchangeReply> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new ExchangeTimeout(`no whole answer within ${init.timeoutMs} ms`)),
    init.timeoutMs,
  );
  const { signal } = init;
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  const body = typeof init.body === 'string' ? Buffer.from(init.body, 'utf8') : init.body;
  const headers = new Headers(init.headers);
  if (body !== undefined) headers.set('content-length', String(body.length));
  let phase: 'request' | 'answer' = 'request';
  try {
    const response = await sendUpstream(url.href, {
      method: init.method,
      headers,
      body: body ?? null,
      signal: controller.signal,
      agent: init.agent,
      lookup: init.lookup,
    });
    phase = 'answer';
    const chunks: Buffer[] = [];
    let size = 0;
    if (response.body !== null) {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > init.maxAnswerBytes) {
          response.body.destroy();
          throw new UpstreamFailure('too-large', phase, `the answer is over ${init.maxAnswerBytes} bytes`);
        }
        chunks.push(chunk);
      }
    }
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: Buffer.concat(chunks),
    };
  } catch (error) {
    if (error instanceof UpstreamFailure) throw error;
    const reason: unknown = controller.signal.reason;
    if (controller.signal.aborted && reason instanceof ExchangeTimeout) {
      throw new UpstreamFailure('timeout', phase, reason.message, undefined, { cause: error });
    }
    if (signal?.aborted === true) {
      throw new UpstreamFailure('aborted', phase, 'the request was cancelled', undefined, { cause: error });
    }
    const code = errorCode(error);
    const message = error instanceof Error ? error.message : String(error);
    throw new UpstreamFailure('network', phase, message, code, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The system error code behind a failure (`ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND` ...). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}
