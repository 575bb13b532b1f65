/**
 * The field paths a model's business rules may name (issue 21: a rule on a field that does not exist
 * was saved, and never failed): every field of the model's data schema when one is known (a v2
 * model's, from the upstream: upstream/model-schemas.ts), titled by it, then every field of its latest
 * documents' results (a data schema replaced at upload has others), in the rules' own notation
 * (`supplier_address.city`, `line_items[*].description`), objects and lists included (a `required`
 * rule may name one, a `sum` names its list). Read from the latest `SAMPLE` documents with a result,
 * so the cost stays bounded whatever the store holds.
 */
import type { FieldMap, FieldResult } from '@extraction-review/contract/v2/schemas';
import { fieldPathPattern } from '@extraction-review/contract/review/model-settings';
import { humanFieldName, type SchemaFieldLike } from '@extraction-review/review-domain/fields/schema-hints';
import { readQueueResult } from '@extraction-review/review-domain/queue/read-queue-result';
import type { ReviewDatabase } from '../db/open-database';
import type { ApiVersion } from '../model/review-types';

const SAMPLE = 50;

export interface KnownFields {
  /** Path → title, in the order first seen (the data schema's first). */
  fields: Map<string, string>;
  documentsRead: number;
  /** Whether the model's data schema was read too. */
  dataSchema: boolean;
}

/** Adds the paths of a data schema's fields (a list of objects' sub-fields as `[*]`), with its titles. */
export function collectSchemaPaths(
  fields: readonly SchemaFieldLike[],
  into: Map<string, string>,
  prefix = '',
  titles = '',
): void {
  for (const field of fields) {
    const path = prefix === '' ? field.name : `${prefix}.${field.name}`;
    const own = field.title?.trim() || humanFieldName(field.name);
    const title = titles === '' ? own : `${titles} › ${own}`;
    if (!into.has(path)) into.set(path, title);
    const nested = field.nested_fields ?? [];
    if (nested.length > 0)
      collectSchemaPaths(nested, into, field.is_array === true ? `${path}[*]` : path, title);
  }
}

/** Adds the paths of one result's fields (a list's items as `[*]`). */
export function collectFieldPaths(
  fields: FieldMap,
  into: Map<string, string>,
  prefix = '',
  titles = '',
): void {
  for (const [name, field] of Object.entries(fields)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const title = titles === '' ? humanFieldName(name) : `${titles} › ${humanFieldName(name)}`;
    visit(field, path, title, into);
  }
}

function visit(field: FieldResult, path: string, title: string, into: Map<string, string>): void {
  if (!into.has(path)) into.set(path, title);
  if ('fields' in field) collectFieldPaths(field.fields, into, path, title);
  else if ('items' in field)
    for (const item of field.items) {
      if ('fields' in item) collectFieldPaths(item.fields, into, `${path}[*]`, title);
      else if ('items' in item) visit(item, `${path}[*]`, title, into);
    }
}

export async function knownFields(
  store: ReviewDatabase,
  apiVersion: ApiVersion,
  model: string,
  /** The model's data schema, when one is known (null: none). */
  schema: readonly SchemaFieldLike[] | null = null,
): Promise<KnownFields> {
  const rows = await store.db
    .selectFrom('documents')
    .select(['api_version', 'model_key', 'result_json', 'upstream_job_id'])
    .where('api_version', '=', apiVersion)
    .where('model_key', '=', model)
    .where('result_json', 'is not', null)
    .orderBy('created_at', 'desc')
    .limit(SAMPLE)
    .execute();
  const fields = new Map<string, string>();
  // A schema without a field says nothing of the fields (no model is so).
  const schemaFields = schema !== null && schema.length > 0 ? schema : null;
  if (schemaFields !== null) collectSchemaPaths(schemaFields, fields);
  let documentsRead = 0;
  for (const row of rows) {
    if (row.result_json === null) continue;
    let result: unknown;
    try {
      result = JSON.parse(row.result_json);
    } catch {
      continue;
    }
    const read = readQueueResult({
      apiVersion: row.api_version,
      result,
      model: row.model_key,
      upstreamJobId: row.upstream_job_id,
    });
    if (!read.ok) continue;
    documentsRead += 1;
    collectFieldPaths(read.review.response.inference.result.fields, fields);
  }
  return { fields, documentsRead, dataSchema: schemaFields !== null };
}

/** Whether a rule's path names a known field (`line_items[2].x` as `line_items[*].x`). */
export function isKnownPath(known: KnownFields, path: string): boolean {
  return known.fields.has(fieldPathPattern(path));
}
