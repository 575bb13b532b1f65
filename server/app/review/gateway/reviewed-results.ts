/**
 * The validated result on demand, for the integration that sent the document (docs/gateway.md):
 *
 *   GET /v2/review/results/{inference_id}   the upstream's inference id (as `GET /v2/inferences/{id}`)
 *   GET /v1/review/documents/{document_id}  the upstream's document id (as `GET /v1/documents/{id}`)
 *
 * 200 with the webhook's body less its `event`: `review` (who confirmed, when, automatic or not, the
 * changed fields, an override's reason) and the corrected result under the API's own key (`inference`,
 * `document`). 404 `404-013` while the document is not confirmed, saying its state, or when it is not
 * this integration's (another's documents are not even acknowledged).
 *
 * A document confirmed, then reopened, is not validated any more until confirmed again.
 */
import { Hono, type Context } from 'hono';
import { ProblemError } from '@extraction-review/contract/problem';
import type { ReviewContext } from '../review-context';
import type { ApiVersion } from '../model/review-types';
import { buildPayloads, webhookBody } from '../deliveries/build-payloads';
import { reviewOutcome } from '../deliveries/deliveries-on-confirm';
import { integrationOf } from './integration-auth';

/** Words for a state, in "The document is …". */
const STATE_WORDS: Record<string, string> = {
  processing: 'still being extracted',
  failed: 'failed at extraction',
  to_review: 'waiting for an operator',
  in_review: 'being reviewed by an operator',
  postponed: 'postponed by an operator',
  rejected: 'rejected by an operator',
};

export function reviewedResultRoutes(review: ReviewContext, version: ApiVersion): Hono {
  const routes = new Hono();
  const path = version === 'v2' ? '/review/results/:id' : '/review/documents/:id';
  routes.get(path, async (c) => c.json(await validatedResult(c, review, version, c.req.param('id'))));
  return routes;
}

async function validatedResult(
  c: Context,
  review: ReviewContext,
  version: ApiVersion,
  upstreamId: string,
): Promise<Record<string, unknown>> {
  const integration = integrationOf(c);
  const what = version === 'v2' ? `inference ${upstreamId}` : `document ${upstreamId}`;
  const document =
    integration === undefined
      ? undefined
      : await review.queue.findLatestOfIntegrationByUpstreamResult(version, upstreamId, integration.id);
  if (document === undefined) {
    throw new ProblemError(
      '404-013',
      `No document of this integration has the ${what}: it was not sent through this gateway with this key, ` +
        'or its result has not come back from extraction yet.',
    );
  }
  if (document.state !== 'confirmed' || document.result_json === null) {
    throw new ProblemError(
      '404-013',
      `The ${what} has not been confirmed yet: the document is ${STATE_WORDS[document.state] ?? document.state}. ` +
        'Its validated result is available here once an operator (or its routing) confirms it, and is pushed ' +
        'to the integration’s webhook when it has one.',
      { extensions: { state: document.state } },
    );
  }
  const latest = await review.queue.currentCorrections(document.id);
  const corrections = Object.fromEntries(
    [...latest].map(([path, json]) => [path, JSON.parse(json) as unknown]),
  );
  const payloads = buildPayloads({
    apiVersion: document.api_version,
    modelKey: document.model_key,
    upstreamJobId: document.upstream_job_id,
    upstreamResultId: document.upstream_result_id,
    resultJson: document.result_json,
    corrections,
  });
  const outcome = await reviewOutcome(
    review.database.db,
    document,
    { id: integration?.id ?? '', name: integration?.name ?? '' },
    document.decided_at ?? document.updated_at,
  );
  const { event: _event, ...body } = webhookBody(document.api_version, outcome, payloads);
  return body;
}
