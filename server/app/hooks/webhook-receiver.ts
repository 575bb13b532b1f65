/**
 * `POST /hooks/v2`: the upstream's webhook, turned into a job event for the connected browsers
 * (events/app-event-hub.ts). In order:
 *
 * 1. no signing secret configured → 404 `404-007`: never an unsigned call accepted;
 * 2. no `X-Signature` → 401 `401-009`, before the body is read;
 * 3. the raw body, read up to `maxBodyBytes` (413 `413-001`, from `Content-Length` before reading);
 * 4. the signature over those raw bytes, compared in constant time (shared/webhook-signature.ts):
 *    401 `401-010` when it does not match; nothing is parsed before it does;
 * 5. `Content-Type` JSON (415 `415-001`), the body JSON (400 `400-001`), and a payload we know
 *    (422 `422-007`, webhook-payloads.ts);
 * 6. the event is published and the call answered `204` at once: the upstream times out slow
 *    receivers (spec §6), and nothing here waits on anything.
 *
 * Idempotent: a delivery repeated (after a time-out, or a restart of the upstream) is acknowledged
 * again, and broadcast only once while its event is in the hub's buffer.
 *
 * The payload schemas (zod, the app's ExtractionResponse) are loaded at the first genuine call rather
 * than with createApp, so that the app server's own module graph stays as lean as the streaming test
 * (proxy/streaming.test.ts) measures it: loading zod changes when V8 collects socket buffers (measured:
 * the RSS growth of a 100 MiB transfer goes from about 10 to about 35 MiB).
 */
import type { Context } from 'hono';
import { checkJsonDepth } from '@extraction-review/server-kit/json-depth';
import { ProblemError } from '@extraction-review/contract/problem';
import { SIGNATURE_HEADER, verifySignature } from '@extraction-review/server-kit/webhook-signature';
import type { AppEventHub } from '../events/app-event-hub';
import { isJsonContentType } from '../proxy/headers';

/** Results with the text of hundreds of pages run to a few MB; this leaves ample room. */
export const DEFAULT_MAX_WEBHOOK_BYTES = 16 * 1024 * 1024;

export interface WebhookReceiverOptions {
  /** The signing secret of the upstream's webhook; undefined: the receiver is off. */
  secret: string | undefined;
  events: AppEventHub;
  maxBodyBytes: number;
}

export function webhookReceiver(options: WebhookReceiverOptions): (c: Context) => Promise<Response> {
  const { secret, events, maxBodyBytes } = options;
  return async (c) => {
    if (secret === undefined) {
      throw new ProblemError(
        '404-007',
        'This app server receives no v2 webhooks: set WEBHOOK_V2_SECRET (the signing secret of the ' +
          "upstream's webhook that points here) to turn the receiver on.",
      );
    }
    const signature = c.req.header(SIGNATURE_HEADER);
    if (signature === undefined || signature.trim() === '') {
      throw new ProblemError('401-009', `The ${SIGNATURE_HEADER} header is missing.`);
    }
    const body = await readBody(c.req.raw, maxBodyBytes);
    if (!verifySignature(secret, body, signature)) {
      throw new ProblemError(
        '401-010',
        `The ${SIGNATURE_HEADER} header is not the HMAC-SHA256 of this body with the configured secret ` +
          '(WEBHOOK_V2_SECRET).',
      );
    }

    if (!isJsonContentType(c.req.header('content-type') ?? null)) {
      throw new ProblemError(
        '415-001',
        `Expected application/json, received ${c.req.header('content-type') ?? 'no Content-Type'}.`,
      );
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch (error) {
      throw new ProblemError('400-001', `The body is not JSON: ${(error as Error).message}`);
    }
    // Before parsing: the payload's validation recurses (422-010 past 64 levels).
    checkJsonDepth(text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new ProblemError('400-001', `The body is not JSON: ${(error as Error).message}`);
    }
    const { classifyWebhookPayload } = await import('./webhook-payloads');
    const classified = classifyWebhookPayload(json);
    if (!classified.success) {
      throw new ProblemError('422-007', classified.detail, { errors: classified.errors });
    }
    const { outcome } = classified;
    events.publishJob({
      version: 'v2',
      jobId: outcome.jobId,
      status: outcome.status,
      ...(outcome.status === 'Processed' ? { inferenceId: outcome.inferenceId } : {}),
    });
    return c.body(null, 204);
  };
}

/** The whole body as bytes, refused past `maxBytes` (from `Content-Length` when it says so, else while reading). */
async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () =>
    new ProblemError('413-001', `The body is larger than the ${maxBytes} bytes a webhook may send here.`);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (request.body === null) return new Uint8Array();

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
