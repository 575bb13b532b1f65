/**
 * `POST /v2/extensions/rag/{model_id}/documents` from a pipeline, answered by the gateway rather than
 * streamed through the proxy: the inference it names is in its body, and must be checked to be the
 * integration's own before anything reaches the upstream (a pipeline may not put another's document,
 * or an operator's, into the model's RAG store, nor learn that an inference exists). The body is read
 * whole (RAG bodies are a document's values: 5 MB at most, as the reference service takes), checked,
 * and sent on with the server's key; the RAG document made becomes the integration's, and the document's
 * timeline says so, as the proxy's recorder does for the app's own sends (intake/sent-back-recorder.ts).
 */
import type { Context } from 'hono';
import type { Upstream } from '../../upstream/upstream-client';
import { UpstreamFailure } from '../../upstream/exchange';
import { V2Upstream } from '../../upstream/v2-upstream';
import { readBodyText } from '@extraction-review/server-kit/body-limit';
import { checkJsonDepth } from '@extraction-review/server-kit/json-depth';
import { ProblemError } from '@extraction-review/contract/problem';
import type { IntegrationRow } from '../db/schema';
import type { ReviewContext } from '../review-context';
import { recordEvent } from '../store/audit-store';
import { NOT_FOUND } from './gateway-route-table';
import type { GatewayOwnership } from './ownership';
import { member, stringOf } from './read-answer';

/** The reference service's own limit on a RAG body (server/reference/rag/rag-routes.ts). */
export const MAX_RAG_BODY_BYTES = 5 * 1024 * 1024;
/** A RAG document's answer carries its text: pages of it, not more. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface RagAddDeps {
  review: Pick<ReviewContext, 'database' | 'queue' | 'clock'>;
  ownership: GatewayOwnership;
  upstream: Upstream | undefined;
  timeoutMs: number;
}

export async function addRagDocument(
  c: Context,
  integration: IntegrationRow,
  deps: RagAddDeps,
): Promise<Response> {
  const { upstream } = deps;
  if (upstream === undefined) {
    throw new ProblemError(
      '502-002',
      'No v2 upstream is configured. Set UPSTREAM_V2_URL and UPSTREAM_V2_API_KEY, ' +
        'or leave both unset to use the embedded reference service.',
    );
  }
  const text = await readBodyText(c.req.raw, MAX_RAG_BODY_BYTES);
  // Before it is parsed: a body nested thousands deep is a 422 here, not a stack overflow further on.
  checkJsonDepth(text);
  let sent: unknown;
  try {
    sent = JSON.parse(text) as unknown;
  } catch {
    sent = undefined;
  }
  const inferenceId = stringOf(member(sent, 'inference_id'));
  // A body with no inference id to check goes on as it came: the upstream refuses it (400, 422) with
  // its own words, and no document can be made from it. One that names an inference goes on only if
  // the inference is this integration's, re-written from what was checked.
  let body = text;
  if (inferenceId !== undefined) {
    const mine = await deps.ownership.owns(integration.id, {
      version: 'v2',
      kind: 'inference',
      id: inferenceId,
    });
    if (!mine) throw NOT_FOUND.ragInference(inferenceId);
    body = JSON.stringify(sent);
  }

  const url = new URL(c.req.url);
  const client = new V2Upstream(upstream, deps.timeoutMs);
  let answer;
  try {
    answer = await client.addRagDocument(
      `${url.pathname}${url.search}`,
      body,
      c.req.header('content-type') ?? 'application/octet-stream',
      { maxAnswerBytes: MAX_ANSWER_BYTES },
    );
  } catch (error) {
    if (error instanceof UpstreamFailure && error.kind === 'too-large') {
      throw new ProblemError(
        '502-001',
        'The v2 upstream’s answer to a RAG document was too large to pass on.',
        {
          cause: error,
        },
      );
    }
    throw client.problemFor(error);
  }
  const bytes = new Uint8Array(answer.body);
  if (answer.status === 201) await madeByIntegration(deps, integration, inferenceId, sent, bytes);

  const headers = new Headers();
  for (const name of ['content-type', 'cache-control']) {
    const value = answer.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // The reference writes its Location as a path, which is the same under the gateway.
  const location = answer.headers.get('location');
  if (location?.startsWith('/') === true && !location.startsWith('//')) headers.set('location', location);
  return new Response(bytes, { status: answer.status, headers });
}

/** The RAG document made is the integration's; its document's timeline records the send. */
async function madeByIntegration(
  deps: RagAddDeps,
  integration: IntegrationRow,
  inferenceId: string | undefined,
  sent: unknown,
  answer: Uint8Array,
): Promise<void> {
  let made: unknown;
  try {
    made = JSON.parse(Buffer.from(answer).toString('utf8')) as unknown;
  } catch {
    made = undefined;
  }
  const ragId = stringOf(member(member(made, 'document'), 'id'));
  if (ragId !== undefined) {
    await deps.ownership.record(integration.id, [{ version: 'v2', kind: 'rag_document', id: ragId }]);
  }
  if (inferenceId === undefined) return;
  const document = await deps.review.queue.findIdByUpstreamResult(
    'v2',
    inferenceId.toLowerCase(),
    integration.id,
  );
  if (document === undefined) return;
  const fields = member(sent, 'fields');
  await recordEvent(deps.review.database.db, {
    documentId: document.id,
    kind: 'sent_to_rag',
    actorId: null,
    at: deps.review.clock.now(),
    data: {
      method: 'POST',
      fields:
        typeof fields === 'object' && fields !== null && !Array.isArray(fields)
          ? Object.keys(fields).sort()
          : [],
      status: 201,
      integration: integration.name,
    },
  });
}
