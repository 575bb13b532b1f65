/**
 * The values of a document nobody checked (packages/review-domain/src/rules/unchecked-values.ts), read
 * as the review reads them with the corrections so far, and whether its model's gate is strict
 * (store/unchecked-gate-store.ts): what a confirmation records, or refuses with 422-014.
 */
import { documentNodes } from '@extraction-review/review-domain/rules/document-nodes';
import { uncheckedValues } from '@extraction-review/review-domain/rules/unchecked-values';
import type { DocumentRow } from '../db/schema';
import type { ReviewContext } from '../review-context';
import { UncheckedGateStore } from '../store/unchecked-gate-store';

export interface UncheckedCheck {
  paths: string[];
  strict: boolean;
}

export async function uncheckedCheck(
  review: Pick<ReviewContext, 'database' | 'queue'>,
  document: DocumentRow,
): Promise<UncheckedCheck> {
  const gate = await new UncheckedGateStore(review.database).get(document.api_version, document.model_key);
  if (document.result_json === null) return { paths: [], strict: gate.strict };
  const corrections = await review.queue.currentCorrections(document.id);
  const read = documentNodes({
    apiVersion: document.api_version,
    model: document.model_key,
    upstreamJobId: document.upstream_job_id,
    result: parseJson(document.result_json),
    corrections: Object.fromEntries([...corrections].map(([path, json]) => [path, parseJson(json)])),
  });
  // A result the review cannot read: it says so already, and no value can be pointed at.
  return { paths: read.ok ? uncheckedValues(read.nodes) : [], strict: gate.strict };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
