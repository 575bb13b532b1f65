/**
 * Each integration sees only its own (docs/gateway.md). The upstream is called with the server's one
 * key whoever the pipeline is, so without this any integration could read, poll, correct or delete any
 * other's jobs, results, v1 documents and RAG documents, and the operators' own uploads.
 *
 * Put after the integration's authentication and the gateway's own routes, before the proxy:
 * 1. the request must be one of the gateway's routes (gateway-route-table.ts), else it is refused and
 *    never proxied;
 * 2. the id in its path must be this integration's (ownership.ts), else the same 404 as for an id that
 *    does not exist at all: the upstream's code and wording, the v1 envelope on /v1 (the v1 error
 *    handler renders it), so another's id and a made-up one cannot be told apart;
 * 3. once the upstream has answered, the ids its answer hands out (a job, an inference, a v1 document)
 *    are recorded as this integration's before the answer leaves, so that its next call finds them;
 *    a RAG list keeps only the integration's own documents.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Upstream } from '../../upstream/upstream-client';
import { ProblemError } from '@extraction-review/contract/problem';
import type { IntegrationRow } from '../db/schema';
import type { ReviewContext } from '../review-context';
import type { ApiVersion } from '../model/review-types';
import { matchGatewayRoute, refusal, type AfterAnswer } from './gateway-route-table';
import { integrationOf } from './integration-auth';
import type { GatewayOwnership, OwnedId } from './ownership';
import { addRagDocument } from './rag-add';
import { answerJson, lastSegment, member, stringOf } from './read-answer';
import { componentLogger } from '@extraction-review/server-kit/logger';

const logger = componentLogger('gateway');

/** Answers whose ids are recorded are a job or a document: this is far above any. */
const MAX_RECORDED_ANSWER_BYTES = 16 * 1024 * 1024;
/** A model's RAG list is read whole to be filtered; past this it is refused rather than passed on. */
export const MAX_RAG_LIST_BYTES = 16 * 1024 * 1024;

const V2_RESULT_PATH = /\/(?:products\/extraction\/results|inferences)\/([^/]+)\/?$/;
const V1_DOCUMENT_PATH = /\/documents\/([^/]+)\/?$/;

export interface IsolationDeps {
  review: Pick<ReviewContext, 'database' | 'queue' | 'clock'>;
  ownership: GatewayOwnership;
  /** For what the gateway sends upstream itself (a RAG document, whose body must be checked first). */
  upstream: Upstream | undefined;
  timeoutMs: number;
}

export function isolateIntegrations(version: ApiVersion, deps: IsolationDeps): MiddlewareHandler {
  return async (c, next) => {
    const integration = integrationOf(c);
    // Mounted after the authentication: never reached without an integration, but never open either.
    if (integration === undefined) throw new ProblemError('401-013', 'No integration key.');
    const pathname = new URL(c.req.url).pathname;
    const matched = matchGatewayRoute(version, c.req.method, pathname);
    if (matched.route === undefined) throw refusal(c.req.method, pathname, matched.allowed);
    const { route, id } = matched;
    if (route.owned !== undefined) {
      const asked: OwnedId = { version, kind: route.owned.kind, id: id ?? '' };
      if (!(await deps.ownership.owns(integration.id, asked))) throw route.owned.notFound(id ?? '');
    }
    if (route.handledBy === 'rag-add') return addRagDocument(c, integration, deps);
    await next();
    if (route.after === 'rag-listed') await keepOwnRagDocuments(c, integration, deps.ownership);
    else if (route.after !== undefined) await recordHandedOut(c, route.after, version, integration, deps);
  };
}

/** The ids the answer hands the integration, recorded as its own. */
async function recordHandedOut(
  c: Context,
  after: Exclude<AfterAnswer, 'rag-listed'>,
  version: ApiVersion,
  integration: IntegrationRow,
  deps: IsolationDeps,
): Promise<void> {
  const answer = c.res;
  if (answer.status < 200 || answer.status >= 400) return;
  const body = await answerJson(answer, MAX_RECORDED_ANSWER_BYTES);
  const job = member(body, 'job');
  const location = answer.headers.get('location');
  const ids: OwnedId[] = [];
  const add = (kind: OwnedId['kind'], id: string | undefined) => {
    if (id !== undefined) ids.push({ version, kind, id });
  };
  switch (after) {
    case 'job-created':
      add('job', stringOf(member(job, 'id')));
      break;
    case 'v1-predicted':
      add('job', stringOf(member(job, 'id')));
      add('document', stringOf(member(member(body, 'document'), 'id')));
      break;
    case 'v2-polled': {
      const resultUrl = stringOf(member(job, 'result_url'));
      if (resultUrl !== undefined) add('inference', lastSegment(resultUrl, V2_RESULT_PATH));
      if (location !== null) add('inference', lastSegment(location, V2_RESULT_PATH));
      break;
    }
    case 'v1-polled':
      add('document', stringOf(member(member(body, 'document'), 'id')));
      if (location !== null) add('document', lastSegment(location, V1_DOCUMENT_PATH));
      break;
  }
  try {
    await deps.ownership.record(integration.id, ids);
  } catch (error) {
    // The answer still goes: the intake keeps the same ids with the document (ownership.ts reads
    // them there too), so the pipeline finds its own a moment later rather than never.
    logger.error({ err: error }, 'the ids handed to an integration could not be recorded');
  }
}

interface RagSummary {
  id?: unknown;
  inference_id?: unknown;
}

/**
 * A model's RAG list with only the integration's own documents (those made from its inferences,
 * whoever sent them: the pipeline itself or the way back at confirmation), which become known as its
 * own. A list that cannot be read is refused, never passed on whole.
 */
async function keepOwnRagDocuments(
  c: Context,
  integration: IntegrationRow,
  ownership: GatewayOwnership,
): Promise<void> {
  const answer = c.res;
  if (answer.status !== 200) return; // the upstream's refusals (no such model) name nobody's data
  const body = await answerJson(answer, MAX_RAG_LIST_BYTES);
  const documents = member(body, 'documents');
  if (!Array.isArray(documents)) {
    await answer.body?.cancel().catch(() => undefined);
    throw new ProblemError(
      '502-001',
      'The v2 upstream’s RAG list could not be read (not JSON, or over 16 MB); it is not passed on unfiltered.',
    );
  }
  const summaries = documents as RagSummary[];
  const owned = await ownership.ownedInferences(
    integration.id,
    summaries.flatMap((document) => stringOf(document.inference_id) ?? []),
  );
  const kept = summaries.filter((document) =>
    owned.has(stringOf(document.inference_id)?.toLowerCase() ?? ''),
  );
  await ownership.record(
    integration.id,
    kept.flatMap((document) => {
      const id = stringOf(document.id);
      return id === undefined ? [] : [{ version: 'v2' as const, kind: 'rag_document' as const, id }];
    }),
  );
  await answer.body?.cancel().catch(() => undefined);
  const headers = new Headers(answer.headers);
  headers.delete('content-length');
  headers.set('cache-control', 'no-store');
  // Cleared first: Hono's setter would otherwise merge the upstream's headers back in.
  c.res = undefined;
  c.res = new Response(JSON.stringify({ ...(body as object), documents: kept }), { status: 200, headers });
}
