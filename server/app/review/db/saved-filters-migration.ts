/**
 * Migration 0011-saved-filters (issue 21, "a saved filter is a queue"):
 *
 * - `saved_queues`: the team's named queues ("Receipts", "Invoices over 10,000"), each a set of the
 *   queue's filters (JSON), its name unique whatever its case, with a version for optimistic writes;
 * - `documents.total_amount`: the document's total amount (model/document-amount.ts says which field),
 *   written with the result and the corrections, for the queue's amount filter. Existing documents are
 *   filled here, a page of 200 at a time, from their stored result and corrections.
 *
 * Expand-only: a new table and a nullable column that older code neither reads nor writes. A document
 * whose result an older copy stores keeps a null amount (it matches no amount filter) until a
 * correction of its amount.
 */
import type { Kysely, Migration } from 'kysely';
import { documentAmount } from '../model/document-amount';
import type { ApiVersion } from '../model/review-types';
import type { Engine } from './migrations';

const PAGE = 200;

export function savedFilters(engine: Engine): Migration {
  const time = engine === 'postgres' ? 'bigint' : 'integer';
  const amount = engine === 'postgres' ? 'double precision' : 'real';
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('saved_queues')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull().unique())
        .addColumn('filters_json', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('operators.id').onDelete('set null'))
        .addColumn('updated_at', time, (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.references('operators.id').onDelete('set null'))
        .execute();

      await db.schema.alterTable('documents').addColumn('total_amount', amount).execute();
      await backfillAmounts(db);
    },
  };
}

/** Every document with a result gets the amount its result and corrections give (else stays null). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema as it was then
async function backfillAmounts(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await db
      .selectFrom('documents')
      .select(['id', 'api_version', 'model_key', 'upstream_job_id', 'result_json'])
      .where('result_json', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute()) as {
      id: string;
      api_version: ApiVersion;
      model_key: string;
      upstream_job_id: string | null;
      result_json: string;
    }[];
    const last = rows.at(-1);
    if (last === undefined) return;
    after = last.id;
    const corrections = (await db
      .selectFrom('corrections')
      .select(['document_id', 'field_path', 'value_json'])
      .where(
        'document_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('id')
      .execute()) as { document_id: string; field_path: string; value_json: string }[];
    const byDocument = new Map<string, Record<string, unknown>>();
    for (const c of corrections) {
      const latest = byDocument.get(c.document_id) ?? {};
      latest[c.field_path] = parse(c.value_json);
      byDocument.set(c.document_id, latest);
    }
    for (const row of rows) {
      const total = documentAmount({
        apiVersion: row.api_version,
        model: row.model_key,
        upstreamJobId: row.upstream_job_id,
        resultJson: row.result_json,
        corrections: byDocument.get(row.id),
      });
      if (total !== null)
        await db.updateTable('documents').set({ total_amount: total }).where('id', '=', row.id).execute();
    }
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
