/**
 * The fields operators correct most, over the documents an operator confirmed in the period: a field
 * counts in a document when the document's latest correction of it was not undone (`$reverted`), so
 * what counts is what the confirmation kept, not each keystroke saved on the way. List items are
 * grouped by field (`line_items[2].quantity` → `line_items[].quantity`): `documents` counts a document
 * once, `values` each item. List edits (`#removed`, `#added`) are counted apart, per list; `#reviewed`
 * (values checked, not changed) is left out.
 *
 * The grouping is done by the app (the engines share no regular expressions): the distinct paths are
 * read first, then each group's documents counted by joining a VALUES list of (path, field).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type {
  CorrectedField,
  CorrectionExample,
  ListEdit,
} from '@extraction-review/contract/review/analytics';
import type { ReviewDatabaseSchema } from '../db/schema';
import { share } from './confirmations';
import { readExamples } from './examples';
import { confirmedByOperatorIn, type AnalyticsScope } from './scope';

/** How many fields the answer lists, and how many of them get examples. */
export const TOP_FIELDS = 25;
export const FIELDS_WITH_EXAMPLES = 10;
export const EXAMPLES_PER_FIELD = 3;
/** (path, field) pairs per counting statement: far below either engine's limit on parameters. */
const PAIRS_PER_STATEMENT = 1000;

const REVERTED = JSON.stringify({ $reverted: true });

export interface FieldCorrections {
  documentsCorrected: number;
  fields: CorrectedField[];
  listEdits: ListEdit[];
}

/** `line_items[2].quantity` → `line_items[].quantity`. */
export function fieldOf(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

/** The latest correction of each field of each document in scope, unless it undid the field's. */
function keptCorrections(scope: AnalyticsScope): RawBuilder<unknown> {
  return sql`
    select c.id, c.document_id, c.field_path, c.value_json, d.decided_at
    from corrections c
    join documents d on d.id = c.document_id
    where ${confirmedByOperatorIn(scope)}
      and c.field_path not like '#%'
      and c.value_json <> ${REVERTED}
      and c.id = (select max(c2.id) from corrections c2 where c2.document_id = c.document_id and c2.field_path = c.field_path)`;
}

export async function fieldCorrections(
  db: Kysely<ReviewDatabaseSchema>,
  scope: AnalyticsScope,
  documentsConfirmed: number,
): Promise<FieldCorrections> {
  const kept = keptCorrections(scope);
  const corrected = await sql<{ n: number | string }>`
    select count(distinct k.document_id) as n from (${kept}) k`.execute(db);
  const paths = await sql<{ field_path: string }>`
    select distinct k.field_path from (${kept}) k`.execute(db);

  const groups = new Map<string, string[]>();
  for (const { field_path: path } of paths.rows) {
    const field = fieldOf(path);
    groups.set(field, [...(groups.get(field) ?? []), path]);
  }
  const counted: { field: string; documents: number; values: number }[] = [];
  for (const chunk of chunksOf([...groups])) {
    const pairs = chunk.flatMap(([field, members]) => members.map((path) => sql`(${path}, ${field})`));
    const { rows } = await sql<{ field: string; documents: number | string; n: number | string }>`
      with g(path, field) as (values ${sql.join(pairs)})
      select g.field, count(distinct k.document_id) as documents, count(*) as n
      from (${kept}) k join g on g.path = k.field_path
      group by g.field`.execute(db);
    for (const row of rows)
      counted.push({ field: row.field, documents: Number(row.documents), values: Number(row.n) });
  }
  counted.sort((a, b) => b.documents - a.documents || b.values - a.values || a.field.localeCompare(b.field));
  const top = counted.slice(0, TOP_FIELDS);

  const examples = await readExamples(
    db,
    await latestOf(
      db,
      kept,
      top
        .slice(0, FIELDS_WITH_EXAMPLES)
        .map((entry) => ({ field: entry.field, paths: groups.get(entry.field) ?? [] })),
    ),
  );
  return {
    documentsCorrected: Number(corrected.rows[0]?.n ?? 0),
    fields: top.map((entry) => ({
      ...entry,
      share: share(entry.documents, documentsConfirmed),
      examples: examples.get(entry.field) ?? [],
    })),
    listEdits: await listEdits(db, scope),
  };
}

/** Groups, whole, in statements of about PAIRS_PER_STATEMENT pairs. */
function chunksOf(groups: [string, string[]][]): [string, string[]][][] {
  const chunks: [string, string[]][][] = [];
  let current: [string, string[]][] = [];
  let size = 0;
  for (const group of groups) {
    if (size > 0 && size + group[1].length > PAIRS_PER_STATEMENT) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(group);
    size += group[1].length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export interface LatestCorrection {
  field: string;
  documentId: string;
  path: string;
  valueJson: string;
  decidedAt: number;
}

/** Each field's latest kept corrections (by confirmation time), a few per field. */
async function latestOf(
  db: Kysely<ReviewDatabaseSchema>,
  kept: RawBuilder<unknown>,
  fields: { field: string; paths: string[] }[],
): Promise<LatestCorrection[]> {
  const out: LatestCorrection[] = [];
  for (const { field, paths } of fields) {
    if (paths.length === 0) continue;
    const { rows } = await sql<{
      document_id: string;
      field_path: string;
      value_json: string;
      decided_at: number | string;
    }>`
      select k.document_id, k.field_path, k.value_json, k.decided_at from (${kept}) k
      where k.field_path in (${sql.join(paths)})
      order by k.decided_at desc, k.id desc
      limit ${EXAMPLES_PER_FIELD}`.execute(db);
    for (const row of rows)
      out.push({
        field,
        documentId: row.document_id,
        path: row.field_path,
        valueJson: row.value_json,
        decidedAt: Number(row.decided_at),
      });
  }
  return out;
}

/** Items added and removed per list: each document's latest `#added` and `#removed`. */
async function listEdits(db: Kysely<ReviewDatabaseSchema>, scope: AnalyticsScope): Promise<ListEdit[]> {
  const { rows } = await sql<{ document_id: string; field_path: string; value_json: string }>`
    select c.document_id, c.field_path, c.value_json
    from corrections c
    join documents d on d.id = c.document_id
    where ${confirmedByOperatorIn(scope)}
      and c.field_path in ('#added', '#removed')
      and c.id = (select max(c2.id) from corrections c2 where c2.document_id = c.document_id and c2.field_path = c.field_path)`.execute(
    db,
  );
  const lists = new Map<string, { documents: Set<string>; added: number; removed: number }>();
  const count = (list: string, documentId: string, kind: 'added' | 'removed', n: number) => {
    if (n <= 0) return;
    const entry = lists.get(list) ?? { documents: new Set<string>(), added: 0, removed: 0 };
    entry.documents.add(documentId);
    entry[kind] += n;
    lists.set(list, entry);
  };
  for (const row of rows) {
    const value = parseJson(row.value_json);
    if (row.field_path === '#removed' && Array.isArray(value)) {
      for (const item of value)
        if (typeof item === 'string')
          count(fieldOf(item).replace(/\[\]$/, ''), row.document_id, 'removed', 1);
    } else if (row.field_path === '#added' && typeof value === 'object' && value !== null) {
      for (const [list, n] of Object.entries(value))
        if (typeof n === 'number' && Number.isInteger(n)) count(fieldOf(list), row.document_id, 'added', n);
    }
  }
  return [...lists]
    .map(([list, entry]) => ({
      list,
      documents: entry.documents.size,
      added: entry.added,
      removed: entry.removed,
    }))
    .sort((a, b) => b.documents - a.documents || a.list.localeCompare(b.list));
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export type { CorrectionExample };
