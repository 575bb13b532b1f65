/**
 * Routing at intake (docs/review-store.md, "Routing and business rules"): when the result of a
 * document sent by an integration arrives, its model's routing rules and business rules
 * (model-settings-store.ts) decide whether an operator reviews it or it is confirmed on its own. The
 * app's own uploads (no integration) always go to an operator. The values are read as the review
 * reads them (packages/review-domain/src/rules/document-nodes.ts), so intake and review agree on a rule.
 *
 * Both ways a result comes in use `setRoutedResult`: the job follower (v2 jobs, v1 queued jobs) and
 * the upload recorder (a v1 synchronous prediction).
 */
import type { RuleFailure } from '@extraction-review/contract/review/model-settings';
import { documentNodes } from '@extraction-review/review-domain/rules/document-nodes';
import { evaluateRules } from '@extraction-review/review-domain/rules/evaluate-rules';
import { routeDocument } from '@extraction-review/review-domain/rules/route-document';
import type { ConfidenceThresholds } from '@extraction-review/review-domain/v1/v1-confidence';
import type { DocumentRow } from '../db/schema';
import type { ReviewContext } from '../review-context';
import { ModelSettingsStore } from '../store/model-settings-store';
import type { RoutingOutcome } from '../store/queue-store';

export interface RoutingOptions {
  /** In [0, 1): the random sample's draw (tests choose it). */
  random?: () => number;
  /** v1 scores graded into levels, for the confidence rule (V1_CONFIDENCE_THRESHOLDS). */
  thresholds?: ConfidenceThresholds | undefined;
}

type Review = Pick<ReviewContext, 'database' | 'queue'>;
type Routed = Pick<DocumentRow, 'api_version' | 'model_key' | 'integration_id' | 'upstream_job_id'>;

/**
 * Where this document goes once `resultJson` is its result; undefined for the app's own uploads,
 * which go to an operator without a word.
 */
export async function routeResult(
  review: Pick<ReviewContext, 'database'>,
  document: Routed,
  resultJson: string,
  options: RoutingOptions = {},
): Promise<RoutingOutcome | undefined> {
  if (document.integration_id === null) return undefined;
  const settings = await new ModelSettingsStore(review.database).get(
    document.api_version,
    document.model_key,
  );
  if (!settings.routing.autoConfirm)
    return { review: true, reasons: ['Automatic confirmation is off for this model'] };
  const read = documentNodes(
    {
      apiVersion: document.api_version,
      model: document.model_key,
      upstreamJobId: document.upstream_job_id,
      result: parseJson(resultJson),
    },
    options.thresholds,
  );
  if (!read.ok) return { review: true, reasons: [`The result cannot be read: ${read.problem.title}`] };
  const decision = routeDocument(read.nodes, settings.routing, settings.rules, options.random ?? Math.random);
  return { review: decision.review, reasons: decision.reasons, failures: decision.failures };
}

/**
 * The result of a processing document, stored with its routing: `QueueStore.setResult` with the
 * outcome of `routeResult`. Undefined when the document is not processing any more (nothing done).
 */
export async function setRoutedResult(
  review: Review,
  id: string,
  result: Parameters<Review['queue']['setResult']>[1],
  now: number,
  options: RoutingOptions = {},
): Promise<DocumentRow | undefined> {
  const document = await review.queue.find(id);
  if (document === undefined || document.state !== 'processing') return undefined;
  const routing = await routeResult(review, document, result.json, options);
  return review.queue.setResult(id, result, now, routing);
}

/**
 * The business rules of the document's model that fail on its result with the corrections so far
 * (a confirmation asks for an override reason when there are some). None when its result cannot be
 * read: the review says so already.
 */
export async function failingRules(
  review: Pick<ReviewContext, 'database' | 'queue'>,
  document: DocumentRow,
): Promise<RuleFailure[]> {
  if (document.result_json === null) return [];
  const settings = await new ModelSettingsStore(review.database).get(
    document.api_version,
    document.model_key,
  );
  if (settings.rules.length === 0) return [];
  const corrections = await review.queue.currentCorrections(document.id);
  const read = documentNodes({
    apiVersion: document.api_version,
    model: document.model_key,
    upstreamJobId: document.upstream_job_id,
    result: parseJson(document.result_json),
    corrections: Object.fromEntries([...corrections].map(([path, json]) => [path, parseJson(json)])),
  });
  return read.ok ? evaluateRules(read.nodes, settings.rules) : [];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
