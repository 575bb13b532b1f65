/**
 * Before → after examples of corrected fields: "before" is the value as extracted, read from the
 * stored result with the review's own modules (a v1 document through its v1 adapter), since a field's
 * first correction keeps no previous value; "after" is the value as confirmed (a number field's text as
 * a number, an emptied value null), as the way back sends it. Both as text.
 */
import type { Kysely } from 'kysely';
import type { CorrectionExample } from '@extraction-review/contract/review/analytics';
import { exportValue } from '@extraction-review/review-domain/corrections/corrected-fields';
import {
  buildReviewTree,
  simpleNodes,
  type SimpleNode,
} from '@extraction-review/review-domain/fields/review-tree';
import { draftFromServer } from '@extraction-review/review-domain/queue/corrections-sync';
import { readQueueResult } from '@extraction-review/review-domain/queue/read-queue-result';
import type { DocumentRow, ReviewDatabaseSchema } from '../db/schema';
import { listCorrectionsOfDocuments, listStoredResultsOf } from '../store/queue-store';
import type { LatestCorrection } from './corrections';

type Stored = Pick<
  DocumentRow,
  'id' | 'file_name' | 'api_version' | 'model_key' | 'upstream_job_id' | 'result_json'
>;

export async function readExamples(
  db: Kysely<ReviewDatabaseSchema>,
  latest: readonly LatestCorrection[],
): Promise<Map<string, CorrectionExample[]>> {
  const examples = new Map<string, CorrectionExample[]>();
  const ids = [...new Set(latest.map((entry) => entry.documentId))];
  if (ids.length === 0) return examples;
  const documents = await listStoredResultsOf(db, ids);
  const corrections = await listCorrectionsOfDocuments(db, ids);
  const trees = new Map<string, Map<string, SimpleNode>>();
  for (const document of documents) {
    const latestValues: Record<string, unknown> = {};
    for (const c of corrections)
      if (c.document_id === document.id) latestValues[c.field_path] = parseOrNull(c.value_json);
    trees.set(document.id, valuesOf(document, latestValues));
  }
  const names = new Map(documents.map((d) => [d.id, d.file_name]));

  for (const entry of latest) {
    const node = trees.get(entry.documentId)?.get(entry.path);
    const example: CorrectionExample = {
      documentId: entry.documentId,
      fileName: names.get(entry.documentId) ?? '',
      path: entry.path,
      before: node === undefined ? null : asText(node.original),
      after: asText(node === undefined ? parseOrNull(entry.valueJson) : exportValue(node)),
      confirmedAt: new Date(entry.decidedAt).toISOString(),
    };
    examples.set(entry.field, [...(examples.get(entry.field) ?? []), example]);
  }
  return examples;
}

/** The document's values by path, its corrections applied; none when its result cannot be read. */
function valuesOf(document: Stored, corrections: Record<string, unknown>): Map<string, SimpleNode> {
  const read = readQueueResult({
    apiVersion: document.api_version,
    result: document.result_json === null ? null : parseOrNull(document.result_json),
    model: document.model_key,
    upstreamJobId: document.upstream_job_id,
  });
  if (!read.ok) return new Map();
  const nodes = buildReviewTree(read.review.response.inference.result.fields, draftFromServer(corrections));
  return new Map(simpleNodes(nodes).map((node) => [node.path, node]));
}

/** A value as text: strings as they are, numbers and booleans written out, anything else as JSON. */
export function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
