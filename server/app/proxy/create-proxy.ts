/**
 * The proxy from `/api/<version>/*` to `<upstream url>/<version>/*`.
 *
 * - Bodies stream both ways, with back-pressure (upstream/send-upstream.ts says why this is node:http and
 *   not fetch). Only JSON answers are read whole, up to a limit, to rewrite the upstream's absolute
 *   URLs; everything else passes through untouched, still content-encoded.
 * - The browser's `Authorization` and cookies are dropped; the server's key is set (headers.ts).
 * - Redirects are not followed: a 3xx goes back to the browser with its `Location` rewritten.
 * - Cancellation: when the browser goes away, @hono/node-server aborts the request's signal, which
 *   destroys the upstream request (and, once the answer streams, cancelling its body does the same).
 * - Time-outs: the upstream must start answering within `headersTimeoutMs` after the request has
 *   been sent in full (so a long upload does not count against it), and may not go silent for more
 *   than `idleTimeoutMs` while it sends its body.
 * - Size: a request body is counted as it streams, whatever its framing, and stopped at
 *   `maxRequestBytes` (a declared length over it is refused before a byte is read): the upstream
 *   request is aborted, having received at most the limit, and the answer is `413-001`, or, when the
 *   upstream's answer has already begun, the client's connection is cut.
 * - The recording's copy of the body (the review intake) keeps pace with it: while the copy's sink is
 *   over its high-water mark, the body waits (it is never dropped, nor buffered without bound).
 * - An answer the recording keeps (an upload the upstream accepted, `answered` returning a promise)
 *   goes to the client only once it is kept: a `202` means the document is in the review store. When
 *   keeping fails, the client gets the recording's problem instead (docs/gateway.md, "Durability").
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable, Transform, type Writable } from 'node:stream';
import type { Context } from 'hono';
import { bodyTooLarge } from '@extraction-review/server-kit/body-limit';
import { ProblemError } from '@extraction-review/contract/problem';
import { decodingFor } from './decode';
import { clientResponseHeaders, isJsonContentType, upstreamRequestHeaders } from './headers';
import type { UrlRewriter } from './rewrite-urls';
import { errorCode } from '../upstream/exchange';
import { sendUpstream } from '../upstream/send-upstream';
import type { ApiVersion } from '@extraction-review/contract/review/schemas';
import { UpstreamClient, type Upstream } from '../upstream/upstream-client';
import { componentLogger } from '@extraction-review/server-kit/logger';
import { relayedAsIs } from '@extraction-review/server-kit/request-log';

const logger = componentLogger('proxy');

const MiB = 1024 * 1024;

/**
 * The largest request body passed upstream: a 100 MiB document (the hosted API's limit, and the
 * reference service's default) sent as base64 in a JSON body (4/3 of it), with 1 MiB for the other
 * fields and the multipart framing: 134.3 MiB. The upstream refuses a larger document itself; this is
 * what the app server lets through before it does, so that no body is unbounded.
 */
export const DEFAULT_MAX_UPLOAD_BYTES = Math.ceil((100 * MiB * 4) / 3) + MiB;

export interface ProxyOptions {
  version: ApiVersion;
  /** Undefined when this version has no upstream: every request answers `502-002`. */
  upstream: Upstream | undefined;
  /**
   * Rewrites the upstream's absolute URLs into ours; a function when they depend on the request (the
   * gateway writes absolute URLs under the host the client called).
   */
  rewriter: UrlRewriter | ((c: Context) => UrlRewriter);
  /** How long the upstream may take to send its response headers once the request is sent. */
  headersTimeoutMs: number;
  /** How long the upstream may stay silent while it sends its response body. */
  idleTimeoutMs: number;
  /** JSON bodies larger than this are passed on unchanged (and unbuffered past this point). */
  maxJsonRewriteBytes: number;
  /**
   * Keeps a copy of what passes (the review store's intake, server/app/review/intake/): asked at each
   * request whether to record it. The copy never fails the upload on its way: a recording that fails
   * is dropped, and the request goes on. Only keeping what the upstream accepted holds the answer
   * back, and a failure to keep it is the answer (`answered`).
   */
  recorder?: ExchangeRecorder | undefined;
  /** Most request body bytes passed upstream (`DEFAULT_MAX_UPLOAD_BYTES` when unset). */
  maxRequestBytes?: number | undefined;
  /** Told of each upstream answer's status, or `error` when none came (the metrics). */
  onUpstreamAnswer?: ((version: ApiVersion, status: number | 'error') => void) | undefined;
}

export interface ExchangeRecorder {
  /** A recording of this exchange, or undefined to let it pass unrecorded. */
  begin(c: Context): ExchangeRecording | undefined;
}

export interface ExchangeRecording {
  /** Receives a copy of the request body, chunk by chunk, then its end. */
  body: Writable;
  /**
   * The upstream answered: its status, for a JSON answer read whole its text (as sent), and the base
   * URL of the upstream that answered. A promise when the recording keeps what was accepted: the
   * answer waits for it (its status and headers are not sent before), and when it rejects the client
   * gets its `ProblemError` (any other error: `503-001`) instead of the upstream's answer.
   */
  answered(answer: UpstreamAnswer): void | Promise<void>;
  /** The exchange failed before an answer (the upstream unreachable, the browser gone). */
  failed(): void;
  /**
   * Looks at the body's first bytes before the upstream gets any of them (a document's real type,
   * upload-recorder.ts): the request is refused, never sent, when `check` rejects.
   */
  screen?: BodyScreen | undefined;
}

export interface UpstreamAnswer {
  status: number;
  json: string | undefined;
  /** The upstream's base URL (`Upstream.url`): which upstream took the request. */
  upstreamUrl: string;
  /** `Upstream.identity`, when it has one. */
  upstreamIdentity?: string | undefined;
}

/**
 * Waits for the recording to keep what the upstream accepted, before the answer leaves. A failure
 * becomes the client's answer: the upstream's `202` would say the document is kept when it is not.
 */
async function keptBeforeAnswer(
  recording: ExchangeRecording | undefined,
  answer: UpstreamAnswer,
): Promise<void> {
  const keeping = recording?.answered(answer);
  if (keeping === undefined) return;
  try {
    await keeping;
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    throw new ProblemError('503-001', 'The upload was taken upstream but could not be kept.', {
      cause: error,
    });
  }
}

export interface BodyScreen {
  /** Most bytes held back while `check` decides; past them the body goes on unscreened. */
  limit: number;
  /**
   * Reads the body's first bytes from `head` (ended when the whole body was shorter than `limit`,
   * destroyed when the proxy stops waiting). Resolves to let the request go, rejects with a
   * `ProblemError` to refuse it.
   */
  check(head: Readable): Promise<void>;
}

/**
 * The body, held back until `screen` has decided (or `screen.limit` bytes have come), then passed on
 * whole: the held chunks, then the rest as it comes. Throws the screen's refusal.
 */
async function screenBody(source: Readable, screen: BodyScreen): Promise<Readable> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head = new PassThrough();
  let decided = false;
  const verdict = screen.check(head).finally(() => {
    decided = true;
  });
  const waiting = verdict.then(() => 'decided' as const);
  waiting.catch(() => undefined);
  const held: Buffer[] = [];
  let size = 0;
  let ended = false;
  /** A read begun while the screen decided: its chunk belongs to what follows. */
  let pending: Promise<IteratorResult<Buffer>> | undefined;
  try {
    while (!decided && !ended && size < screen.limit) {
      pending ??= iterator.next();
      const next = await Promise.race([waiting, pending]);
      if (next === 'decided') break;
      pending = undefined;
      if (next.done === true) {
        ended = true;
        head.end();
        await verdict;
        break;
      }
      held.push(next.value);
      size += next.value.length;
      head.write(next.value);
    }
    if (decided) await verdict;
  } catch (refusal) {
    // Refused: the rest of the body is read and dropped before the answer (the count above it still
    // bounds it). Answered while the client still sends, on a connection then closed, a client's next
    // write fails (EPIPE, or a reset that takes the answer with it) and it never sees why.
    if (!ended) await dropRest(iterator, pending);
    throw refusal;
  } finally {
    if (!head.writableEnded) head.destroy();
  }
  async function* replay(): AsyncGenerator<Buffer> {
    yield* held;
    if (ended) return;
    if (pending !== undefined) {
      const next = await pending;
      if (next.done === true) return;
      yield next.value;
    }
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
  return Readable.from(replay(), { objectMode: false });
}

/** Reads a body to its end, keeping nothing; a body that breaks (cut short, over the limit) ends it. */
async function dropRest(
  iterator: AsyncIterator<Buffer>,
  pending: Promise<IteratorResult<Buffer>> | undefined,
): Promise<void> {
  try {
    if (pending !== undefined && (await pending).done === true) return;
    for (;;) if ((await iterator.next()).done === true) return;
  } catch {
    // The caller answers from what it knows: the refusal, or the 413 of a body over the limit.
  }
}

/**
 * The request body passed on unchanged, a copy written to the recording as it goes. The copy's sink
 * sets the pace too: a chunk is passed on at once, but the next is not taken while the sink is over
 * its high-water mark, so that a slow sink slows the upload (back-pressure reaches the client)
 * instead of holding its chunks. A sink that fails or is closed is left behind; the body goes on.
 */
export function teeBody(source: Readable, recording: Pick<ExchangeRecording, 'body'>): Readable {
  const sink = recording.body;
  let copying = true;
  let release: (() => void) | undefined;
  const stopCopying = () => {
    copying = false;
    release?.();
  };
  sink.once('error', stopCopying);
  sink.once('close', stopCopying);
  const tee = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      this.push(chunk);
      if (!copying || sink.write(chunk)) {
        callback();
        return;
      }
      const go = () => {
        sink.off('drain', go);
        release = undefined;
        callback();
      };
      release = go;
      sink.on('drain', go);
    },
    flush(callback) {
      if (copying) sink.end();
      callback();
    },
  });
  source.once('error', (error) => {
    sink.destroy(error);
    tee.destroy(error);
  });
  return source.pipe(tee);
}

class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

/**
 * The body counted as it streams: chunks pass until their total would exceed `maxBytes`; the chunk
 * that would cross it is not passed, and `onExceeded` is called (once) instead.
 */
function countBody(source: Readable, maxBytes: number, onExceeded: () => void): Readable {
  let size = 0;
  let exceeded = false;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (exceeded) {
        callback();
        return;
      }
      size += chunk.length;
      if (size > maxBytes) {
        exceeded = true;
        // Not read any further: @hono/node-server drains (or closes) what is left after the answer.
        source.unpipe(counter);
        source.pause();
        onExceeded();
        counter.destroy(new BodyTooLarge(`the request body is over ${maxBytes} bytes`));
        callback();
        return;
      }
      callback(null, chunk);
    },
  });
  source.once('error', (error) => counter.destroy(error));
  return source.pipe(counter);
}

/** The body's declared length, 0 when it declares none (chunked). */
function declaredLength(request: Request): number {
  const header = request.headers.get('content-length');
  if (header === null || request.headers.has('transfer-encoding')) return 0;
  const length = Number(header);
  return Number.isFinite(length) ? length : 0;
}

/** `/api/v2/jobs/1?x=1` on our side → `/v2/jobs/1?x=1` upstream, under the client's base URL. */
function upstreamPathFor(requestUrl: string): string {
  const incoming = new URL(requestUrl);
  return `${incoming.pathname.replace(/^\/api(?=\/)/, '')}${incoming.search}`;
}

class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
}

export function createProxyHandler(options: ProxyOptions): (c: Context) => Promise<Response> {
  const { version, upstream, rewriter, headersTimeoutMs, idleTimeoutMs, maxJsonRewriteBytes, recorder } =
    options;
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const envPrefix = `UPSTREAM_${version.toUpperCase()}`;

  const rewriterFor = typeof rewriter === 'function' ? rewriter : () => rewriter;
  // The base URL and the key, added as on every other call to this upstream (upstream-client.ts).
  const client = upstream === undefined ? undefined : new UpstreamClient(version, upstream, headersTimeoutMs);

  return async (c) => {
    if (upstream === undefined || client === undefined) {
      throw new ProblemError(
        '502-002',
        `No ${version} upstream is configured. Set ${envPrefix}_URL and ${envPrefix}_API_KEY, ` +
          'or leave both unset to use the embedded reference service.',
      );
    }
    const target = client.url(upstreamPathFor(c.req.url)).href;
    const incoming = c.req.raw;
    const clientSignal = incoming.signal;

    const controller = new AbortController();
    const abortFromClient = () => controller.abort(clientSignal.reason);
    if (clientSignal.aborted) abortFromClient();
    else clientSignal.addEventListener('abort', abortFromClient, { once: true });

    let timer: NodeJS.Timeout | undefined;
    let answered = false;
    const startHeadersTimer = () => {
      if (answered) return; // the upstream answered before reading the whole upload
      timer ??= setTimeout(
        () => controller.abort(new UpstreamTimeout(`no answer within ${headersTimeoutMs / 1000} s`)),
        headersTimeoutMs,
      );
    };

    // Under @hono/node-server the Node request is at hand: piping it straight on saves a copy of
    // every chunk (and the garbage) that going through the web stream would cost.
    const nodeRequest = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    // Answering before the upload has been read in full (an upstream error, an early 413): close
    // the connection after the answer, or the rest of the upload would keep it busy.
    const connectionHeaders = (): Record<string, string> =>
      hasBody && nodeRequest !== undefined && !nodeRequest.complete ? { Connection: 'close' } : {};

    // Refused before a byte is read when its declared length says it is too large.
    if (hasBody && declaredLength(incoming) > maxRequestBytes) throw bodyTooLarge(maxRequestBytes);
    // Past the limit: before the upstream answered, the upstream request is aborted and the answer
    // is the 413 (below); once its answer has begun, the client's connection is cut instead.
    let overLimit = false;
    const onOverLimit = () => {
      overLimit = true;
      if (answered) nodeRequest?.socket.destroy();
      controller.abort(new BodyTooLarge(`the request body is over ${maxRequestBytes} bytes`));
    };
    const tooLargeOr = (problem: () => ProblemError): ProblemError =>
      overLimit ? bodyTooLarge(maxRequestBytes) : problem();
    const counted =
      hasBody && nodeRequest !== undefined
        ? countBody(nodeRequest, maxRequestBytes, onOverLimit)
        : hasBody && incoming.body !== null
          ? countBody(
              Readable.fromWeb(incoming.body as Parameters<typeof Readable.fromWeb>[0]),
              maxRequestBytes,
              onOverLimit,
            )
          : undefined;

    const recording = hasBody && nodeRequest !== undefined ? recorder?.begin(c) : undefined;
    let screened: Readable | undefined = counted;
    if (recording?.screen !== undefined && counted !== undefined) {
      try {
        screened = await screenBody(counted, recording.screen);
      } catch (error) {
        recording.failed();
        if (overLimit) throw bodyTooLarge(maxRequestBytes);
        if (!(error instanceof ProblemError)) throw error;
        // The rest was read (screenBody); were it not, the connection closes after the answer.
        throw new ProblemError(error.code, error.message, {
          errors: error.errors,
          headers: { ...error.headers, ...connectionHeaders() },
          extensions: error.extensions,
        });
      }
    }
    const requestBody =
      recording !== undefined && screened !== undefined ? teeBody(screened, recording) : screened;

    let response;
    try {
      response = await sendUpstream(target, {
        method: incoming.method,
        headers: upstreamRequestHeaders(incoming.headers, client.authorization()),
        body: hasBody ? (requestBody ?? null) : null,
        signal: controller.signal,
        onRequestSent: startHeadersTimer,
      });
      options.onUpstreamAnswer?.(version, response.status);
    } catch (error) {
      options.onUpstreamAnswer?.(version, 'error');
      recording?.failed();
      throw tooLargeOr(() =>
        toProblem(
          error,
          controller.signal,
          clientSignal,
          version,
          upstream.url,
          connectionHeaders(),
          'request',
        ),
      );
    } finally {
      answered = true;
      clearTimeout(timer);
    }

    const { body } = response;
    body?.setTimeout(idleTimeoutMs, () => {
      body.destroy(new UpstreamTimeout(`silent for ${idleTimeoutMs / 1000} s while sending its body`));
    });

    // The upstream's answer, its body its own (no request_id added to its problems).
    relayedAsIs(c);
    const headers = clientResponseHeaders(response.headers);
    const rewriter = rewriterFor(c);
    const location = headers.get('location');
    if (location !== null) headers.set('location', rewriter.rewriteLocation(location, target));
    for (const [name, value] of Object.entries(connectionHeaders())) headers.set(name, value);
    const init = { status: response.status, statusText: response.statusText, headers };

    const answer = (json: string | undefined): UpstreamAnswer => ({
      status: response.status,
      json,
      upstreamUrl: upstream.url,
      upstreamIdentity: upstream.identity,
    });
    if (body === null) {
      await keptBeforeAnswer(recording, answer(undefined));
      return new Response(null, init);
    }
    const decoding = decodingFor(headers.get('content-encoding'));
    if (!isJsonContentType(headers.get('content-type')) || decoding.kind === 'unsupported') {
      await keptBeforeAnswer(recording, answer(undefined)).catch((error: unknown) => {
        body.destroy();
        throw error;
      });
      return new Response(toWeb(body), init);
    }

    // A JSON answer: decode it if needed, read it (up to the limit), rewrite its URLs.
    let source: Readable = body;
    if (decoding.kind === 'decode') {
      source = body.pipe(decoding.create());
      body.once('error', (error) => source.destroy(error));
      headers.delete('content-encoding');
      headers.delete('content-length');
    }
    let buffered: Buffered;
    try {
      buffered = await readUpTo(source, maxJsonRewriteBytes);
    } catch (error) {
      recording?.failed();
      throw tooLargeOr(() =>
        toProblem(error, controller.signal, clientSignal, version, upstream.url, {}, 'answer'),
      );
    }
    if (buffered.rest !== undefined) {
      await keptBeforeAnswer(recording, answer(undefined)).catch(async (error: unknown) => {
        await buffered.rest?.return?.();
        source.destroy();
        throw error;
      });
      logger.warn(
        { api_version: version, max_bytes: maxJsonRewriteBytes },
        'a JSON answer too large to rewrite passed on unrewritten',
      );
      headers.delete('content-length');
      return new Response(toWeb(Readable.from(replay(buffered.chunks, buffered.rest))), init);
    }
    const original = Buffer.concat(buffered.chunks);
    const text = original.toString('utf8');
    // Kept before the answer's status and headers go: a pipeline's 202 means its document is stored.
    await keptBeforeAnswer(recording, answer(text));
    const rewritten = rewriter.rewriteJsonText(text);
    const bytes = new Uint8Array(rewritten === text ? original : Buffer.from(rewritten, 'utf8'));
    headers.set('content-length', String(bytes.byteLength));
    return new Response(bytes, init);
  };
}

/**
 * A web stream over a Node stream, pulled one chunk at a time. Unlike `Readable.toWeb`, it does not
 * copy each chunk, which halves the garbage a large download leaves behind between collections.
 */
function toWeb(stream: Readable): ReadableStream<Uint8Array> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done === true) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        stream.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The problem for a failed exchange with the upstream. `phase` says whether it failed before its
 * answer began (`request`) or while its body was being read (`answer`).
 */
function toProblem(
  error: unknown,
  signal: AbortSignal,
  clientSignal: AbortSignal,
  version: ApiVersion,
  baseUrl: string,
  headers: Record<string, string>,
  phase: 'request' | 'answer',
): ProblemError {
  const origin = new URL(baseUrl).origin;
  const timeout =
    error instanceof UpstreamTimeout
      ? error
      : signal.aborted && signal.reason instanceof UpstreamTimeout
        ? signal.reason
        : undefined;
  if (timeout !== undefined) {
    return new ProblemError(
      '504-001',
      `The ${version} upstream at ${origin} timed out (${timeout.message}).`,
      {
        cause: error,
        headers,
      },
    );
  }
  if (clientSignal.aborted) {
    // Nobody reads this answer: the browser has gone. It only keeps the renderer's contract.
    return new ProblemError('502-001', 'The client closed the request; the upstream request was cancelled.', {
      cause: error,
      headers,
    });
  }
  const code = errorCode(error);
  const detail =
    phase === 'request'
      ? `Could not reach the ${version} upstream at ${origin}${code ? ` (${code})` : ''}.`
      : `The ${version} upstream at ${origin} broke off its answer${code ? ` (${code})` : ''}.`;
  logger.warn({ err: error, api_version: version }, detail);
  return new ProblemError('502-001', detail, { cause: error, headers });
}

interface Buffered {
  chunks: Buffer[];
  /** Set when the limit was reached: the iterator over what follows the chunks. */
  rest?: AsyncIterator<Buffer>;
}

async function readUpTo(stream: Readable, limit: number): Promise<Buffered> {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done === true) return { chunks };
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) return { chunks, rest: iterator };
  }
}

async function* replay(chunks: Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield* chunks;
  for (;;) {
    const { done, value } = await rest.next();
    if (done === true) return;
    yield value;
  }
}
