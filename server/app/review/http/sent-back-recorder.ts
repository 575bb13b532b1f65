/**
 * What an operator sends back from a review, recorded in the document's timeline: v1 feedback
 * (`PUT`/`PATCH /api/v1/documents/{id}/feedback`) and corrections sent to RAG
 * (`POST /api/v2/extensions/rag/{model}/documents`, the reference service's extension). Both go
 * through the proxy as before; once the upstream has accepted them (2xx), the document they are about
 * (by its upstream result: the v1 document id, the v2 inference id) gets a `feedback_sent` or
 * `sent_to_rag` event with who sent it and which fields.
 */
import { PassThrough } from 'node:stream';
import type { Context } from 'hono';
import type { ExchangeRecorder } from '../../proxy/create-proxy';
import type { ReviewContext } from '../review-context';
import { integrationOf } from '../gateway/integration-auth';
import { currentSession } from './session-auth';
import { recordEvent } from '../store/audit-store';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('review intake');

// From the app (/api/…) and from pipelines through the gateway (/v1, /v2 of the app server).
const V1_FEEDBACK = /^(?:\/api)?\/v1\/documents\/([^/]+)\/feedback\/?$/;
const V2_RAG = /^(?:\/api)?\/v2\/extensions\/rag\/[^/]+\/documents\/?$/;
/** Feedback and RAG bodies are a document's values: far below this. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

type Kind = 'feedback_sent' | 'sent_to_rag';

function targetOf(c: Context): { kind: Kind; resultId: string | undefined } | undefined {
  const pathname = new URL(c.req.url).pathname;
  const feedback = V1_FEEDBACK.exec(pathname);
  if (feedback !== null && (c.req.method === 'PUT' || c.req.method === 'PATCH')) {
    return { kind: 'feedback_sent', resultId: decodeURIComponent(feedback[1] ?? '') };
  }
  if (V2_RAG.test(pathname) && c.req.method === 'POST') return { kind: 'sent_to_rag', resultId: undefined };
  return undefined;
}

/** The names of the fields a feedback or RAG body carries. */
function fieldsOf(body: unknown): string[] {
  const record = (value: unknown): Record<string, unknown> | undefined =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const top = record(body);
  const fields = record(top?.feedback) ?? record(top?.fields) ?? {};
  return Object.keys(fields).sort();
}

export function sentBackRecorder(review: ReviewContext): ExchangeRecorder {
  return {
    begin(c) {
      const target = targetOf(c);
      if (target === undefined) return undefined;
      const method = c.req.method;
      const sink = new PassThrough();
      const chunks: Buffer[] = [];
      let size = 0;
      sink.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      const body = new Promise<unknown>((resolve) => {
        sink.once('end', () => {
          try {
            resolve(size <= MAX_BODY_BYTES ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
          } catch {
            resolve(undefined);
          }
        });
        sink.once('error', () => resolve(undefined));
      });
      // A pipeline's integration, or the operator of the request's cookie.
      const integration = integrationOf(c);
      const sender =
        integration !== undefined
          ? Promise.resolve(null)
          : currentSession(c, review).then(
              (session) => session?.operator.id ?? null,
              () => null,
            );
      return {
        body: sink,
        answered: ({ status }) => {
          if (status < 200 || status >= 300) return;
          void (async () => {
            const sent = await body;
            const resultId =
              target.resultId ??
              (typeof (sent as { inference_id?: unknown } | undefined)?.inference_id === 'string'
                ? (sent as { inference_id: string }).inference_id
                : undefined);
            if (resultId === undefined) return;
            const document = await review.queue.findIdByUpstreamResult(
              target.kind === 'feedback_sent' ? 'v1' : 'v2',
              resultId,
            );
            if (document === undefined) return;
            await recordEvent(review.database.db, {
              documentId: document.id,
              kind: target.kind,
              actorId: await sender,
              at: review.clock.now(),
              data: {
                method,
                fields: fieldsOf(sent),
                status,
                ...(integration === undefined ? {} : { integration: integration.name }),
              },
            });
          })().catch((error: unknown) => logger.error({ err: error }, 'a send-back could not be recorded'));
        },
        failed: () => sink.destroy(),
      };
    },
  };
}

/** The first recorder that wants the exchange records it. */
export function firstRecorder(recorders: readonly (ExchangeRecorder | undefined)[]): ExchangeRecorder {
  return {
    begin(c) {
      for (const recorder of recorders) {
        const recording = recorder?.begin(c);
        if (recording !== undefined) return recording;
      }
      return undefined;
    },
  };
}
