/**
 * Confirmed documents of one model, in order of confirmation, with their validated values: what the
 * exports write. Read in pages of `BATCH` by key (confirmation time, id), each page's corrections in
 * one query, so that an export of any size holds one page in memory and the database is never asked
 * to hold a cursor open for as long as a slow client downloads.
 */
import type { FieldMap } from '@extraction-review/contract/v2/schemas';
import { correctedFields } from '@extraction-review/review-domain/corrections/corrected-fields';
import { buildReviewTree } from '@extraction-review/review-domain/fields/review-tree';
import { draftFromServer } from '@extraction-review/review-domain/queue/corrections-sync';
import { readQueueResult } from '@extraction-review/review-domain/queue/read-queue-result';
import type { ReviewDatabase } from '../db/open-database';
import {
  listConfirmedDocumentsPage,
  listCorrectionsOfDocuments,
  overrideReasonsOf,
} from '../store/queue-store';

const BATCH = 100;

export interface ConfirmedDocument {
  id: string;
  apiVersion: 'v2' | 'v1';
  model: string;
  fileName: string;
  alias: string | null;
  integration: string | null;
  confirmedAt: number;
  /** The operator's name; null for an automatic confirmation (or an operator since removed). */
  confirmedBy: string | null;
  automatic: boolean;
  /** Why it was confirmed although business rules failed (the operator's override), else null. */
  overrideReason: string | null;
  /** The corrected fields in the v2 API's shape (v1 results through the review's v1 adapter). */
  fields: FieldMap;
  /** Whether the stored result could be read (else `fields` is empty). */
  readable: boolean;
}

export interface ConfirmedRange {
  model: string;
  /** Confirmed at or after (ms). */
  from?: number | undefined;
  /** Confirmed before (ms). */
  to?: number | undefined;
}

export async function* confirmedDocuments(
  store: ReviewDatabase,
  range: ConfirmedRange,
): AsyncGenerator<ConfirmedDocument> {
  let after: { at: number; id: string } | undefined;
  for (;;) {
    const rows = await listConfirmedDocumentsPage(store.db, range, after, BATCH);
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    const corrections = await latestCorrections(store, ids);
    const overrides = await overrideReasonsOf(store.db, ids);
    for (const row of rows) {
      const read =
        row.result_json === null
          ? undefined
          : readQueueResult({
              apiVersion: row.api_version,
              result: JSON.parse(row.result_json) as unknown,
              model: row.model_key,
              upstreamJobId: row.upstream_job_id,
            });
      const fields =
        read?.ok === true
          ? correctedFields(
              buildReviewTree(
                read.review.response.inference.result.fields,
                draftFromServer(corrections.get(row.id) ?? {}),
              ),
            )
          : {};
      yield {
        id: row.id,
        apiVersion: row.api_version,
        model: row.model_key,
        fileName: row.file_name,
        alias: row.alias,
        integration: row.integration_name,
        confirmedAt: row.decided_at ?? 0,
        confirmedBy: row.operator_name,
        automatic: row.decided_by === null,
        overrideReason: overrides.get(row.id) ?? null,
        fields,
        readable: read?.ok === true,
      };
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < BATCH) return;
    after = { at: last.decided_at ?? 0, id: last.id };
  }
}

/** The latest value of each corrected path, per document. */
async function latestCorrections(
  store: ReviewDatabase,
  ids: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await listCorrectionsOfDocuments(store.db, ids);
  // Maps, then fromEntries: a path such as `__proto__` is a key like any other.
  const latest = new Map<string, Map<string, unknown>>();
  for (const row of rows) {
    const values = latest.get(row.document_id) ?? new Map<string, unknown>();
    values.set(row.field_path, JSON.parse(row.value_json) as unknown);
    latest.set(row.document_id, values);
  }
  return new Map([...latest].map(([id, values]) => [id, Object.fromEntries(values)]));
}
