/**
 * Part of `npm run bench -- queue`: a queue of N documents as a team has it after months of work,
 * written by the store's own engine in a few large `INSERT … SELECT` statements (PostgreSQL's
 * `generate_series`, SQLite's recursive `WITH`), so that 1,000,000 documents take minutes, not an hour.
 *
 * The rows go in through ordinary INSERT statements on the app's own store connection: every trigger
 * and index the migrations put on `documents` (counts kept per state, search indexes) does its work
 * for each row, as it would for documents that came one by one. Then PostgreSQL's planner statistics
 * are gathered (ANALYZE), as autovacuum would have them in a store that has lived. SQLite's are not
 * (unless `analyzeSqlite`): the app never runs ANALYZE or `PRAGMA optimize`, so a real embedded store
 * has none, and with them SQLite plans the queue's first page differently (a scan and a sort of the
 * whole table instead of a walk of documents_created: 13 ms → 280 ms at 20,000 documents).
 *
 * What the queue holds (n = 0 oldest … N − 1 newest):
 * - the newest min(2,600, N / 5): about 2,100 waiting (`to_review`, a few assigned to an operator or
 *   with a higher priority), 300 held under a live lease, 100 whose lease has run out (they count as
 *   waiting), 100 postponed (until nobody takes them, until later, until a time that has come);
 * - the older ones decided: confirmed, one in ten rejected, one in 997 postponed, one in 2,003 failed;
 * - every one with its file's digest and size (one in 500 the same file as the one before);
 * - three models (6 : 3 : 1); names `<supplier>-invoice-0000123.pdf` with one of 40 suppliers, and a
 *   rare one (`zephyrine`) on about 20 documents whatever N, for a selective name search; an alias
 *   (`PO-…`) on one in seven.
 */
import { sql, type RawBuilder } from 'kysely';
import type { OpenedReview } from '@extraction-review/app-server/review/open-review';

/** A word found in about 20 file names, whatever the number of documents. */
export const RARE_WORD = 'zephyrine';
/** A supplier found in one file name in 40. */
export const COMMON_WORD = 'nordwind';

const SUPPLIERS = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'stark',
  'wayne',
  'wonka',
  'tyrell',
  'cyberdyne',
  'soylent',
  'gringotts',
  'monarch',
  'vandelay',
  'kramerica',
  'dunder',
  'prestige',
  'sterling',
  'pied-piper',
  'oceanic',
  COMMON_WORD,
  'bluth',
  'massive',
  'aperture',
  'black-mesa',
  'weyland',
  'oscorp',
  'lacroix',
  'halvorsen',
  'berliner',
  'fjord',
  'lumen',
  'castellan',
  'meridian',
  'ostrava',
  'quercus',
  'tamarind',
  'vireo',
  'wexford',
  'yarrow',
] as const;

const MODELS = ['model-invoices', 'model-receipts', 'model-purchase-orders'] as const;
const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Rows per statement: each stays far below the store's statement time-out, and progress shows. */
const CHUNK = 25_000;

export interface SeedTimes {
  insertMs: number;
  /** Null: no statistics gathered (SQLite without `analyzeSqlite`). */
  analyzeMs: number | null;
}

export interface SeedOptions {
  /** Gather SQLite's statistics too (ANALYZE, `PRAGMA optimize`), which the app never does. */
  analyzeSqlite?: boolean;
  onProgress?: (done: number) => void;
}

/** `case <expr> when 0 then v0 when 1 then v1 … end`, the values bound as parameters. */
function pick(index: RawBuilder<unknown>, values: readonly string[]): RawBuilder<string> {
  return sql<string>`case ${index} ${sql.join(
    values.map((value, i) => sql`when ${sql.lit(i)} then ${sql.lit(value)}`),
    sql` `,
  )} end`;
}

/** The SELECT list that makes document `n` (a bigint on both engines), in the columns' order below. */
function documentColumns(
  engine: 'sqlite' | 'postgres',
  total: number,
  operatorIds: readonly string[],
  now: number,
) {
  const n = sql.ref('n');
  const recent = Math.max(1, Math.min(2_600, Math.floor(total / 5)));
  const rareEvery = Math.max(1, Math.floor(total / 20));
  const step = Math.max(1, Math.floor(YEAR_MS / total));
  // r ≥ 0 in the newest `recent`; k says what a recent one is.
  const r = sql`(${n} - ${sql.lit(total - recent)})`;
  const k = sql`(${r} % 26)`;
  const state = sql<string>`case
    when ${r} >= 0 and ${k} in (0, 1, 2, 13) then 'in_review'
    when ${r} >= 0 and ${k} = 7 then 'postponed'
    when ${r} >= 0 then 'to_review'
    when ${n} % 997 = 1 then 'postponed'
    when ${n} % 2003 = 2 then 'failed'
    when ${n} % 10 = 3 then 'rejected'
    else 'confirmed' end`;
  const created = sql`(${sql.lit(now)} - (${sql.lit(total)} - ${n}) * ${sql.lit(step)})`;
  const decided = sql`case when ${state} in ('confirmed', 'rejected', 'postponed') then ${created} + 60000 + (${n} % 3600) * 1000 end`;
  const operator = (of: RawBuilder<unknown>) =>
    pick(sql`(${of}) % ${sql.lit(operatorIds.length)}`, operatorIds);
  const supplier = sql<string>`case when ${n} % ${sql.lit(rareEvery)} = 7 then ${sql.lit(RARE_WORD)} else ${pick(
    sql`((${n} * 7919) % ${sql.lit(SUPPLIERS.length)})`,
    SUPPLIERS,
  )} end`;
  const number =
    engine === 'postgres' ? sql<string>`lpad(${n}::text, 7, '0')` : sql<string>`printf('%07d', ${n})`;
  const id =
    engine === 'postgres'
      ? sql<string>`gen_random_uuid()::text`
      : // A version-4 UUID from SQLite's random bytes.
        sql<string>`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
          || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
  const sha = sql`(${n} - case when ${n} % 500 = 499 then 1 else 0 end)`;
  // Parenthesised: SQLite's `||` binds tighter than `%`.
  const text = (value: RawBuilder<unknown>) =>
    engine === 'postgres' ? sql`(${value})::text` : sql`(${value})`;
  return {
    id,
    api_version: sql`'v2'`,
    model_key: pick(sql`case when ${n} % 10 < 6 then 0 when ${n} % 10 < 9 then 1 else 2 end`, MODELS),
    file_name: sql`${supplier} || '-invoice-' || ${number} || '.pdf'`,
    alias: sql`case when ${n} % 7 = 0 then 'PO-' || ${text(sql`${n} % 100000`)} end`,
    mime_type: sql`'application/pdf'`,
    // Every kept file has its digest (one in 500 the same file as the document before it: the queue
    // marks it a duplicate); a column of nulls would give the planner statistics no store has.
    file_sha256: engine === 'postgres' ? sql`lpad(to_hex(${sha}), 64, '0')` : sql`printf('%064x', ${sha})`,
    file_bytes: sql`40000 + (${n} * 7919) % 400000`,
    upstream_job_id: sql`'job-' || ${text(n)}`,
    upstream_result_id: sql`case when ${state} <> 'failed' then 'inference-' || ${text(n)} end`,
    state,
    holder_id: sql`case when ${state} = 'in_review' then ${operator(r)} end`,
    lease_expires_at: sql`case when ${state} = 'in_review' then case when ${k} = 13 then ${sql.lit(now - 300_000)} else ${sql.lit(now + 300_000)} end end`,
    decided_by: sql`case when ${decided} is not null then ${operator(n)} end`,
    decided_at: decided,
    reason: sql`case ${state} when 'rejected' then 'Duplicate of an earlier invoice' when 'postponed' then 'Waiting for the supplier' end`,
    postponed_until: sql`case when ${state} = 'postponed' and ${r} >= 0 then case (${r} / 26) % 3 when 1 then ${sql.lit(now + 86_400_000)} when 2 then ${sql.lit(now - 60_000)} end end`,
    priority: sql`case when ${state} = 'to_review' and ${n} % 211 = 0 then 1 else 0 end`,
    version: sql`case when ${state} = 'to_review' then 1 else 3 end`,
    fields_total: sql`case when ${state} = 'failed' then 0 else 12 end`,
    fields_to_review: sql`case when ${state} = 'failed' then 0 else ${n} % 5 end`,
    result_json: sql`case when ${state} <> 'failed' then '{"inference":{"result":{"fields":{}}}}' end`,
    error_json: sql`case when ${state} = 'failed' then '{"status":422,"title":"The file could not be read."}' end`,
    total_amount: sql`case when ${state} <> 'failed' then ((${n} * 7919) % 500000) / 100.0 end`,
    assigned_to: sql`case when ${state} = 'to_review' and ${r} % 97 = 5 then ${operator(r)} end`,
    assigned_at: sql`case when ${state} = 'to_review' and ${r} % 97 = 5 then ${sql.lit(now - 3_600_000)} end`,
    created_at: created,
    updated_at: sql`coalesce(${decided}, ${created} + 4000)`,
    ready_at: sql`case when ${state} <> 'failed' then ${created} + 4000 end`,
  } satisfies Record<string, RawBuilder<unknown>>;
}

/** Inserts `total` documents (the operators hold and decide them), then gathers the statistics. */
export async function seedQueue(
  review: OpenedReview,
  total: number,
  operatorIds: readonly string[],
  { analyzeSqlite = false, onProgress = () => undefined }: SeedOptions = {},
): Promise<SeedTimes> {
  const { db, engine } = review.database;
  const now = Date.now();
  const columns = Object.entries(documentColumns(engine, total, operatorIds, now));
  const names = sql.join(columns.map(([name]) => sql.ref(name)));
  const values = sql.join(columns.map(([, value]) => value));
  const inserting = performance.now();
  for (let from = 0; from < total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK) - 1;
    const statement =
      engine === 'postgres'
        ? sql`insert into documents (${names})
            select ${values} from generate_series(${sql.lit(from)}::bigint, ${sql.lit(to)}::bigint) as g(n)`
        : sql`insert into documents (${names})
            with recursive g(n) as (select ${sql.lit(from)} union all select n + 1 from g where n < ${sql.lit(to)})
            select ${values} from g`;
    await statement.execute(db);
    onProgress(to + 1);
  }
  const insertMs = performance.now() - inserting;
  const analyzing = performance.now();
  if (engine === 'postgres') await sql`analyze`.execute(db);
  else if (analyzeSqlite) {
    await sql`analyze`.execute(db);
    await sql`pragma optimize`.execute(db);
  } else return { insertMs, analyzeMs: null };
  return { insertMs, analyzeMs: performance.now() - analyzing };
}

/** The database's size on disk, and the documents table's with its indexes (PostgreSQL). */
export async function databaseSize(
  review: OpenedReview,
): Promise<{ database: number; documents: number | null }> {
  const { db, engine } = review.database;
  if (engine === 'postgres') {
    const { rows } = await sql<{ database: string; documents: string }>`
      select pg_database_size(current_database()) as database,
             pg_total_relation_size('documents') as documents`.execute(db);
    return { database: Number(rows[0]?.database), documents: Number(rows[0]?.documents) };
  }
  const { rows } = await sql<{ bytes: number }>`
    select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
  // dbstat is compiled into some SQLite builds only: without it, the table's share is not known.
  const documents = await sql<{ bytes: number }>`
    select sum(pgsize) as bytes from dbstat
    where name = 'documents'
       or name in (select name from sqlite_master where tbl_name = 'documents' and type = 'index')`
    .execute(db)
    .then(
      (stat) => stat.rows[0]?.bytes ?? null,
      () => null,
    );
  return { database: Number(rows[0]?.bytes), documents };
}
