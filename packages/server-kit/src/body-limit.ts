/**
 * Request bodies are counted as they stream in and refused at their route's limit, whatever their
 * framing: a `Content-Length` over the limit is refused before a byte is read; a chunked body, or one
 * whose length is not declared, is read chunk by chunk and dropped at the first chunk past the limit.
 * Nothing past the limit is ever held: the answer is a 413 `413-001`, and the rest of an oversized
 * upload is not kept (@hono/node-server drops at most 64 MiB or 500 ms of it, then closes the socket).
 *
 * Two ways in:
 * - `readBodyBytes` / `readBodyText`, for a route that reads its body whole (a JSON request);
 * - `limitBodies`, a middleware in front of every route of a server, which wraps the request's body in
 *   the same counter with the limit its table gives the route, so that a route reading its body with
 *   `c.req.text()` or `c.req.json()` is bounded too. Routes that stream their body under a counter of
 *   their own (uploads) are left out by the table.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';

/** Review requests, settings, sign-in: small JSON. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The 413. Without `Connection: close`, on purpose: with it Node closes the socket as soon as the
 * answer is written, while the client is still sending, and the reset that unread bytes cause can
 * reach the client before it has read the answer (seen in the attack test). Left to
 * @hono/node-server, the rest of the body is read and dropped for at most 500 ms or 64 MiB before the
 * connection is closed: a lingering close, which lets the answer arrive.
 */
export function bodyTooLarge(maxBytes: number, detail?: string): ProblemError {
  return new ProblemError('413-001', detail ?? `The request body is over ${maxBytes} bytes.`);
}

/** The body's declared length, when it declares one (a chunked body does not). */
function declaredLength(request: Request): number | undefined {
  const header = request.headers.get('content-length');
  if (header === null || request.headers.has('transfer-encoding')) return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

/**
 * The whole body, read up to `maxBytes` and no further: past it, `tooLarge()` is thrown at once and
 * the chunks read so far are dropped. A body cut short by the client is a 400 `400-001`.
 */
export async function readBodyBytes(
  request: Request,
  maxBytes: number,
  tooLarge: () => ProblemError = () => bodyTooLarge(maxBytes),
): Promise<Buffer> {
  if ((declaredLength(request) ?? 0) > maxBytes) throw tooLarge();
  if (request.body === null) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Not cancelled: cancelling the Node request's stream would destroy the socket before the
        // 413 is written. The server closes the connection after the answer instead.
        reader.releaseLock();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    // The client went away or half-closed mid-body: its problem, not the server's (nothing logged).
    throw new ProblemError('400-001', 'The request body was cut short before it arrived in full.', {
      cause: error,
    });
  }
  return Buffer.concat(chunks, size);
}

/** The whole body as UTF-8 text, read up to `maxBytes` (see `readBodyBytes`). */
export async function readBodyText(
  request: Request,
  maxBytes: number,
  tooLarge?: () => ProblemError,
): Promise<string> {
  return (await readBodyBytes(request, maxBytes, tooLarge)).toString('utf8');
}

/**
 * Every route's body under a limit: `limitFor` gives the route's limit in bytes, or `undefined` for a
 * route that counts its own body as it streams it (an upload). The body is wrapped in a counter that
 * errors at the limit; whatever the route then answers (it may have turned the error into a 400 or a
 * 500), the answer is the 413.
 */
export function limitBodies(limitFor: (c: Context) => number | undefined): MiddlewareHandler {
  return async (c, next) => {
    const limit = limitFor(c);
    // Not even looked at for a route that streams its own body: reading `c.req.raw.body` makes
    // @hono/node-server start pulling the request into a web stream, which the proxy, piping the
    // Node request itself, would then miss (seen: a gateway upload stalled until its 408).
    if (limit === undefined) return next();
    const body = c.req.raw.body;
    if (body === null) return next();
    if ((declaredLength(c.req.raw) ?? 0) > limit) throw bodyTooLarge(limit);

    let exceeded = false;
    let size = 0;
    const source = body.getReader();
    const counted = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await source.read();
          if (done) {
            controller.close();
            return;
          }
          size += value.byteLength;
          if (size > limit) {
            exceeded = true;
            source.releaseLock();
            controller.error(bodyTooLarge(limit));
            return;
          }
          controller.enqueue(value);
        },
      },
      // Pulled one chunk at a time, as the route reads: nothing is read ahead of it.
      { highWaterMark: 0 },
    );
    const init: RequestInit & { duplex: 'half' } = { body: counted, duplex: 'half' };
    c.req.raw = new Request(c.req.raw, init);
    await next();
    // Thrown, not set: the app's own error handler renders it (the v1 envelope under /v1).
    if (exceeded) throw bodyTooLarge(limit);
  };
}
